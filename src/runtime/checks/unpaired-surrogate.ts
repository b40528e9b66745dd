/** Every string and property name is Unicode text: no unpaired UTF-16 surrogate (the walk is `json-data.ts`). */
import { ingestRule } from "./ingest-rule.js";

export const unpairedSurrogate = ingestRule("unpaired-surrogate", "schema", "<any>");
