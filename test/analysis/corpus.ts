// The corpus of test/analysis/check-digest.test.ts: generated graphs of several sizes and seeds,
// each also cut at random places (tokens deleted, braces dropped) so that the parser's recovery
// runs. Shared with scripts that record its digests from another build.
import { createRandom, generateGraph, toSeam } from "../../bench/gen-graph.mjs";

/** One text of the corpus and its name. */
export interface CorpusText {
  readonly name: string;
  readonly text: string;
}

/** `text` with `cuts` random spans removed (each up to 12 code units), by `seed`. */
function mutate(text: string, seed: number, cuts: number): string {
  const random = createRandom(seed);
  let out = text;
  for (let i = 0; i < cuts; i++) {
    const at = Math.floor(random() * out.length);
    out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 12));
  }
  return out;
}

/** The corpus: sizes 40, 300 and 2000 agents, three seeds each, whole and cut. */
export function corpus(): CorpusText[] {
  const texts: CorpusText[] = [];
  for (const agents of [40, 300, 2000]) {
    for (const seed of [1, 2, 0x5ea1]) {
      const text = toSeam(generateGraph({ agents, seed }));
      texts.push({ name: `${agents}-${seed}`, text });
      for (const cuts of [1, 5, 40]) texts.push({ name: `${agents}-${seed}-cut${cuts}`, text: mutate(text, seed * 31 + cuts, cuts) });
    }
  }
  return texts;
}
