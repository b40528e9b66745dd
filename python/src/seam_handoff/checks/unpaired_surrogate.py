"""Every string and key is Unicode text: no unpaired UTF-16 surrogate (the walk is `_untrusted.json_data_problems`)."""

from ._rule import ingest_rule

RULE = ingest_rule("unpaired-surrogate", "schema", "<any>")
