/** The envelope is JSON data: no inherited property, undefined, NaN, function, hole, cycle or nesting past 64 levels (the walk is `json-data.ts`). */
import { ingestRule } from "./ingest-rule.js";

export const notJsonData = ingestRule("not-json-data", "schema", "<any>");
