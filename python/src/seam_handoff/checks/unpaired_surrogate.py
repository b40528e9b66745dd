"""Every string and key is Unicode text: no unpaired UTF-16 surrogate (the walk is `_untrusted.json_data_problems`)."""

from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("unpaired-surrogate", "schema", "<any>")
