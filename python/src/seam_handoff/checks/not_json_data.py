"""The envelope is JSON data: dicts, lists, str, int, float, bool and None only, finite numbers, no
cycle or shared part, nesting at most 64 levels (the walk is `_untrusted.json_data_problems`)."""

from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("not-json-data", "schema", "<any>")
