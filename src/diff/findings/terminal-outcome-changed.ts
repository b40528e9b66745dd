import { terminalPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `terminal-outcome-changed` (safe): a terminal ends tasks with another outcome. */
export const terminalOutcomeChanged = graphFinding(
  {
    id: "terminal-outcome-changed",
    class: "safe",
    description: "A terminal's outcome (complete, failed, escalate) changed.",
    effect: "No handoff is refused; whoever reads task outcomes sees the new one.",
  },
  ({ pair, report }) => {
    for (const { old, new: agent } of pair.keptAgents) {
      const before = new Map(old.terminals.map((t) => [t.id, t]));
      for (const terminal of agent.terminals) {
        const was = before.get(terminal.id);
        if (was === undefined || was.outcome === terminal.outcome) continue;
        report({
          at: terminalPlace(pair.new, agent, terminal.id),
          was: terminalPlace(pair.old, old, terminal.id),
          owner: agent.id,
          message: `terminal ${terminal.id} of agent ${agent.id} now ends tasks as ${terminal.outcome}, not ${was.outcome}: nothing is refused, but whoever reads task outcomes sees the new one`,
          subject: { in: "new", agent: agent.id, terminal: terminal.id },
        });
      }
    }
  },
);
