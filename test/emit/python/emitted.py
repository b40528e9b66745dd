"""Loads an emitted module by path, as a service would import it (shared by the test scripts)."""
import importlib.util
import sys


def load(path, name="seam_emitted"):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
