/** Where the rollout walkthrough is: test/docs/rollout.test.ts runs it, test/docs/samples.test.ts leaves its blocks to that test. */
export const ROLLOUT = { page: "docs/production.md", section: "A rollout end to end: LangGraph and Node replicas on one Redis" } as const;
