import { agentPlace, terminalPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `terminal-removed` (breaking): an agent lost a terminal. */
export const terminalRemoved = graphFinding(
  {
    id: "terminal-removed",
    class: "breaking",
    description: "A terminal of an agent was removed.",
    effect: "Tasks that would end at the terminal can no longer end there; a task in flight heading for it must find another way out.",
  },
  ({ pair, report }) => {
    for (const { old, new: agent } of pair.keptAgents) {
      const kept = new Set(agent.terminals.map((t) => t.id));
      for (const terminal of old.terminals) {
        if (kept.has(terminal.id)) continue;
        report({
          at: agentPlace(pair.new, agent),
          was: terminalPlace(pair.old, old, terminal.id),
          owner: agent.id,
          message: `terminal ${terminal.id} (${terminal.outcome}) of agent ${agent.id} was removed: tasks in flight that ${agent.id} would end there can no longer end there`,
          subject: { in: "old", agent: agent.id, terminal: terminal.id },
        });
      }
    }
  },
);
