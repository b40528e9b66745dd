/** A bench run as bench/run.mjs writes it (bench/.out/results.json). */
export interface BenchResults {
  readonly machine: {
    readonly node: string;
    readonly cpu: string;
    readonly cores: number;
    readonly memoryGiB: number;
    readonly platform: string;
    readonly loadAverage: readonly number[];
    readonly loadAverageAfter?: readonly number[];
  };
  readonly at: string;
  readonly smoke?: boolean;
  readonly sections: readonly {
    readonly name: string;
    readonly title: string;
    readonly seconds: number;
    readonly loadAverage: readonly number[];
    readonly error?: string;
    readonly rows: readonly {
      readonly measure: string;
      readonly seam: string;
      readonly peer: string;
      readonly ratio: string;
      readonly target: string;
      readonly pass: boolean | null;
    }[];
  }[];
}
/** The committed copy of the run docs/performance.md shows. */
export const PUBLISHED: string;
/** docs/performance.md. */
export const PAGE: string;
export const START: string;
export const END: string;
/** The Markdown tables of a full run; throws for a smoke run or a crashed section. */
export function renderTables(results: BenchResults): string;
/** The generated part of a page, or undefined. */
export function generatedPart(page: string): string | undefined;
/** The page with its generated part replaced; throws when the markers are missing. */
export function withTables(page: string, tables: string): string;
