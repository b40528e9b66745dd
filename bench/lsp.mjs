// Language server: what an editor waits for. A real `seam lsp --stdio` process is driven over
// JSON-RPC (vscode-languageserver-protocol, as the tests do) on generated documents of 1,000 and
// 10,000 agents:
// the time from sending `didChange` to receiving the `publishDiagnostics` of that version (for a
// keystroke in a comment, a space between tokens, a letter in an agent's name and a letter in a
// terminal's description: the first two and the last keep the tokens, the third changes the
// graph: the rules run again on the last tree, src/program/name-edit.ts), and
// the time of a `completion` request (the agent names after an arrow). Peers: the same analysis
// in-process without the protocol (`analyse()`, what the server runs per change), and a
// `hover` request (the cheapest request, so the protocol's own round trip). On a shared machine
// wall time grows with the load, so the server's CPU time per keystroke is reported too, beside
// the CPU of the same analysis in-process. Memory: the server's resident set with the six
// examples open, beside the same server with nothing open.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";
import { generateGraph, toSeam } from "./gen-graph.mjs";
import { progress, runIfMain, scaled } from "./section.mjs";
import { median, nowMs } from "./stats.mjs";
import { fmtBytes, fmtMs, row } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const AGENTS = 1_000;
/** The larger document: only didChange -> diagnostics is measured on it. */
const LARGE_AGENTS = 10_000;
const RUNS = scaled(41, 3);
const LARGE_RUNS = scaled(15, 2);
const WARMUP = scaled(5, 1);
/**
 * Pause before each keystroke: 10 keystrokes a second, fast typing for a person. Without it a
 * slow check under machine load would make the server's throttle (see `src/lsp/server.ts`) hold
 * back the next edit, which measures the throttle rather than what a typist waits for.
 */
const KEYSTROKE_INTERVAL_MS = 100;
/** Edits whose CPU time is measured (the clock ticks every 10 ms, so enough to sum to seconds). */
const CPU_RUNS = scaled(100, 4);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { createFrontEnd } = await import("../dist/lsp/front-end.js");

/** Starts `seam lsp --stdio` and initializes it; `published(uri, version)` waits for that version's diagnostics. */
async function startServer() {
  const child = spawn(process.execPath, ["bin/seam.js", "lsp", "--stdio"], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map();
  connection.onNotification("textDocument/publishDiagnostics", (p) => {
    const key = `${p.uri}#${p.version}`;
    waiting.get(key)?.(p);
    waiting.delete(key);
  });
  connection.listen();
  await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
  await connection.sendNotification("initialized", {});
  const published = (uri, version) => new Promise((resolve) => waiting.set(`${uri}#${version}`, resolve));
  const open = async (uri, text) => {
    const done = published(uri, 1);
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "seam", version: 1, text } });
    return done;
  };
  const stop = async () => {
    await connection.sendRequest("shutdown", null);
    await connection.sendNotification("exit");
    await new Promise((resolve) => child.once("exit", resolve));
    connection.dispose();
  };
  return { child, connection, published, open, stop };
}

/** CPU time (user + system) a process has used, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // After the command name: state is field 3, utime field 14, stime field 15 (proc(5)).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** The resident set size of a process in bytes (Linux /proc). */
function rssOf(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** The LSP position of an offset in a text with LF line ends. */
const lineAndCharacter = (text, offset) => {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length - 1, character: before[before.length - 1].length };
};

/**
 * Edits, completions and hovers on one document. Each edit is a keystroke sent as an editor sends
 * it (an incremental change): `typed` typed at offset `at` of the document, then deleted, and so
 * on, so every version differs; the completion asks for the target of the last edge, where every
 * agent but that edge's source is offered.
 */
async function measureEditing(text, uri, { agents = AGENTS, runs = RUNS, cpuRuns = CPU_RUNS, at: offset, typed = "x" }) {
  const at = lineAndCharacter(text, offset);
  const lastArrow = text.lastIndexOf("-> ");
  const completionAt = lineAndCharacter(text, lastArrow + 3);
  const firstAgent = /agent (\w+)/.exec(text);
  const hoverAt = lineAndCharacter(text, firstAgent.index + 7);
  const server = await startServer();
  await server.open(uri, text);
  const changes = [];
  const completion = [];
  const hover = [];
  for (let i = 0; i < WARMUP + runs; i++) {
    await pause(KEYSTROKE_INTERVAL_MS);
    const version = i + 2;
    const typing = i % 2 === 0;
    const change = {
      range: { start: at, end: { line: at.line, character: at.character + (typing ? 0 : 1) } },
      text: typing ? typed : "",
    };
    const start = nowMs();
    const done = server.published(uri, version);
    await server.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [change] });
    const diagnostics = await done;
    const changeMs = nowMs() - start;
    if (!Array.isArray(diagnostics.diagnostics)) throw new Error("publishDiagnostics carried no list");
    const completionStart = nowMs();
    const items = await server.connection.sendRequest("textDocument/completion", { textDocument: { uri }, position: completionAt });
    const completionMs = nowMs() - completionStart;
    // Every agent but the edge's source, which an edge may not target (self-handoff).
    if (items.length !== agents - 1) throw new Error(`completion listed ${items.length} agents, not ${agents - 1}`);
    const hoverStart = nowMs();
    await server.connection.sendRequest("textDocument/hover", { textDocument: { uri }, position: hoverAt });
    const hoverMs = nowMs() - hoverStart;
    if (i >= WARMUP) {
      changes.push(changeMs);
      completion.push(completionMs);
      hover.push(hoverMs);
    }
  }
  // CPU time per keystroke, which machine load does not inflate as it does wall time: the server
  // process's CPU over a run of edits alone, beside the CPU of the same analyses in-process.
  const cpuBefore = cpuMsOf(server.child.pid);
  for (let i = 0; i < cpuRuns; i++) {
    const version = WARMUP + runs + 2 + i;
    const typing = i % 2 === 0;
    const change = {
      range: { start: at, end: { line: at.line, character: at.character + (typing ? 0 : 1) } },
      text: typing ? typed : "",
    };
    const done = server.published(uri, version);
    await server.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [change] });
    await done;
  }
  const serverCpu = cpuRuns === 0 ? undefined : (cpuMsOf(server.child.pid) - cpuBefore) / cpuRuns;
  await server.stop();
  const inProcess = [];
  const frontEnd = createFrontEnd();
  const version = (typing) => (typing ? `${text.slice(0, offset)}${typed}${text.slice(offset)}` : text);
  for (let i = 0; i < WARMUP + runs; i++) {
    const start = nowMs();
    frontEnd.analyse("large.seam", version(i % 2 === 0));
    if (i >= WARMUP) inProcess.push(nowMs() - start);
  }
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < cpuRuns; i++) frontEnd.analyse("large.seam", version(i % 2 === 1));
  const used = process.cpuUsage(cpuStart);
  const analyseCpu = cpuRuns === 0 ? undefined : (used.user + used.system) / 1000 / cpuRuns;
  return { serverCpu, analyseCpu, change: median(changes), completion: median(completion), hover: median(hover), analyse: median(inProcess) };
}

/** The offset just after the name, in its declaration, of the agent in the middle of a generated document. */
function middleAgentName(text) {
  const declarations = [...text.matchAll(/^ {2}agent ([\w-]+)/gm)];
  const middle = declarations[declarations.length >> 1];
  return middle.index + middle[0].length;
}

/**
 * `text` with an empty comment line before the declaration of the agent in the middle, and the
 * offset inside that comment: an edit there moves the offsets of the document's second half.
 */
function withMiddleComment(text) {
  const line = text.lastIndexOf("\n", middleAgentName(text)) + 1;
  return { text: `${text.slice(0, line)}  // \n${text.slice(line)}`, at: line + "  // ".length };
}

/** An offset inside the description (a string literal) of the first terminal after the middle agent of a generated document. */
function middleDescription(text) {
  const quote = text.indexOf('"task ends at', middleAgentName(text));
  if (quote < 0) throw new Error("no terminal description after the middle agent of the document");
  return quote + '"task ends'.length;
}

async function measureMemory() {
  const examples = readdirSync(new URL("../examples/", import.meta.url)).filter((f) => f.endsWith(".seam")).sort();
  const server = await startServer();
  globalThis.gc?.();
  const idle = rssOf(server.child.pid);
  for (const name of examples) await server.open(`file:///bench/examples/${name}`, readFileSync(new URL(`../examples/${name}`, import.meta.url), "utf8"));
  const withExamples = rssOf(server.child.pid);
  await server.stop();
  return { examples: examples.length, idle, withExamples };
}

export async function measureLsp() {
  const clean = toSeam(generateGraph({ agents: AGENTS }));
  // The same document while an edge is being typed: a syntax error, so the parser's recovery runs.
  const close = clean.lastIndexOf("}");
  const broken = `${clean.slice(0, close)}  delegate ->\n${clean.slice(close)}`;
  progress(`lsp: ${RUNS} edits, completions and hovers on a ${AGENTS}-agent document (${(clean.length / 1024).toFixed(0)} KiB), clean and with a syntax error`);
  // Every keystroke lands in the middle of the document, since a check reused across an edit
  // moves the offsets of everything after it: an `x` in a comment line before the middle agent's
  // declaration; a space after that agent's name (the tokens stay as they were); a letter typed
  // at the end of that name (the graph changes: every edge to it names an unknown agent); a
  // letter typed inside the description of the terminal nearest the middle.
  const commented = withMiddleComment(clean);
  const editing = await measureEditing(commented.text, "file:///bench/large.seam", { at: commented.at });
  const brokenCommented = withMiddleComment(broken);
  const typing = await measureEditing(brokenCommented.text, "file:///bench/large-typing.seam", { at: brokenCommented.at });
  const outside = await measureEditing(clean, "file:///bench/large-outside.seam", { cpuRuns: 0, at: middleAgentName(clean), typed: " " });
  const rename = await measureEditing(clean, "file:///bench/large-rename.seam", { cpuRuns: 0, at: middleAgentName(clean) });
  const describe = await measureEditing(clean, "file:///bench/large-describe.seam", { cpuRuns: 0, at: middleDescription(clean) });
  progress(`lsp: ${LARGE_RUNS} edits on a ${LARGE_AGENTS}-agent document`);
  const larger = toSeam(generateGraph({ agents: LARGE_AGENTS }));
  const largeOptions = { agents: LARGE_AGENTS, runs: LARGE_RUNS, cpuRuns: 0 };
  const largerCommented = withMiddleComment(larger);
  const large = await measureEditing(largerCommented.text, "file:///bench/larger.seam", { ...largeOptions, at: largerCommented.at });
  const largeOutside = await measureEditing(larger, "file:///bench/larger-outside.seam", { ...largeOptions, at: middleAgentName(larger), typed: " " });
  const largeRename = await measureEditing(larger, "file:///bench/larger-rename.seam", { ...largeOptions, at: middleAgentName(larger) });
  const largeDescribe = await measureEditing(larger, "file:///bench/larger-describe.seam", { ...largeOptions, at: middleDescription(larger) });
  const memory = await measureMemory();
  const ms = (value) => ({ op: "<=", value, unit: " ms" });
  return {
    title: `Language server (seam lsp over stdio, ${AGENTS}-agent document, median of ${RUNS}; peers: the same analysis in-process, a hover round trip)`,
    data: { agents: AGENTS, runs: RUNS, clean: editing, withSyntaxError: typing, outsideComments: outside, agentName: rename, description: describe, large: { agents: LARGE_AGENTS, runs: LARGE_RUNS, ...large }, largeOutsideComments: largeOutside, largeAgentName: largeRename, largeDescription: largeDescribe, memory },
    rows: [
      row("didChange -> publishDiagnostics, a keystroke in a comment, mid-document (ms)", fmtMs(editing.change), "", { ratio: editing.change, target: ms(10) }),
      row("  vs analyse() in-process", fmtMs(editing.change), fmtMs(editing.analyse), { ratio: editing.change / editing.analyse }),
      row("server CPU per keystroke (didChange -> publishDiagnostics)", fmtMs(editing.serverCpu), fmtMs(editing.analyseCpu), { ratio: editing.serverCpu / editing.analyseCpu }),
      row("didChange -> publishDiagnostics, a keystroke in a comment, mid-document, syntax error (ms)", fmtMs(typing.change), "", { ratio: typing.change, target: ms(10) }),
      row("  vs analyse() in-process", fmtMs(typing.change), fmtMs(typing.analyse), { ratio: typing.change / typing.analyse }),
      row("server CPU per keystroke, syntax error", fmtMs(typing.serverCpu), fmtMs(typing.analyseCpu), { ratio: typing.serverCpu / typing.analyseCpu }),
      row("didChange -> publishDiagnostics, a space typed between tokens, mid-document (ms)", fmtMs(outside.change), "", { ratio: outside.change, target: ms(10) }),
      row("  vs analyse() in-process", fmtMs(outside.change), fmtMs(outside.analyse), { ratio: outside.change / outside.analyse }),
      row("didChange -> publishDiagnostics, a letter typed in an agent's name (the rules run again, ms)", fmtMs(rename.change), "", { ratio: rename.change, target: ms(10) }),
      row("  vs analyse() in-process", fmtMs(rename.change), fmtMs(rename.analyse), { ratio: rename.change / rename.analyse }),
      row("didChange -> publishDiagnostics, a letter typed in a terminal's description (ms)", fmtMs(describe.change), "", { ratio: describe.change, target: ms(10) }),
      row("  vs analyse() in-process", fmtMs(describe.change), fmtMs(describe.analyse), { ratio: describe.change / describe.analyse }),
      row(`${LARGE_AGENTS} agents: didChange -> publishDiagnostics, a keystroke in a comment, mid-document (ms, median of ${LARGE_RUNS})`, fmtMs(large.change), "", { ratio: large.change, target: ms(50) }),
      row(`${LARGE_AGENTS} agents: vs analyse() in-process`, fmtMs(large.change), fmtMs(large.analyse), { ratio: large.change / large.analyse }),
      row(`${LARGE_AGENTS} agents: didChange -> publishDiagnostics, a space typed between tokens, mid-document (ms, median of ${LARGE_RUNS})`, fmtMs(largeOutside.change), "", { ratio: largeOutside.change, target: ms(50) }),
      row(`${LARGE_AGENTS} agents: didChange -> publishDiagnostics, a letter typed in an agent's name (the rules run again, ms, median of ${LARGE_RUNS})`, fmtMs(largeRename.change), "", { ratio: largeRename.change, target: ms(50) }),
      row(`${LARGE_AGENTS} agents: vs analyse() in-process`, fmtMs(largeRename.change), fmtMs(largeRename.analyse), { ratio: largeRename.change / largeRename.analyse }),
      row(`${LARGE_AGENTS} agents: didChange -> publishDiagnostics, a letter typed in a terminal's description (ms, median of ${LARGE_RUNS})`, fmtMs(largeDescribe.change), "", { ratio: largeDescribe.change, target: ms(50) }),
      row(`completion of ${AGENTS} agent names (ms)`, fmtMs(editing.completion), "", { ratio: editing.completion, target: ms(10) }),
      row("  vs hover round trip", fmtMs(editing.completion), fmtMs(editing.hover), { ratio: editing.completion / editing.hover }),
      row(`server RSS, ${memory.examples} examples open vs none`, fmtBytes(memory.withExamples), fmtBytes(memory.idle), { ratio: memory.withExamples / memory.idle }),
    ],
  };
}

runIfMain(import.meta.url, measureLsp);
