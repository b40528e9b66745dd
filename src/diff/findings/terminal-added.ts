import { terminalPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `terminal-added` (safe): an agent gained a terminal. */
export const terminalAdded = graphFinding(
  {
    id: "terminal-added",
    class: "safe",
    description: "A terminal was added to an agent.",
    effect: "Tasks get one more way to end; no handoff is refused.",
  },
  ({ pair, report }) => {
    for (const { old, new: agent } of pair.keptAgents) {
      const before = new Set(old.terminals.map((t) => t.id));
      for (const terminal of agent.terminals) {
        if (before.has(terminal.id)) continue;
        report({
          at: terminalPlace(pair.new, agent, terminal.id),
          owner: agent.id,
          message: `agent ${agent.id} has a new terminal ${terminal.id} (${terminal.outcome}): tasks get one more way to end, nothing is refused`,
          subject: { in: "new", agent: agent.id, terminal: terminal.id },
        });
      }
    }
  },
);
