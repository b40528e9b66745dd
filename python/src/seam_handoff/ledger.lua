-- Seam ledger, version 7: the Redis store's one script, loaded by the JavaScript store
-- (src/runtime/redis-scripts.ts) and the Python store (seam_handoff, which ships a copy the
-- build writes from this file) and called by SHA-1. ARGV[1] names the operation: "claim"
-- decides one delivery and keeps its task's ledger; "finish" records a terminal action. Each
-- call runs atomically in Redis (https://redis.io/docs/latest/develop/programmability/eval-intro/),
-- so one call is one round trip and two replicas racing for the same hop cannot both win, and
-- JavaScript and Python replicas on one prefix share one ledger. They decide exactly as the
-- memory stores do (src/runtime/seen-store.ts), in the same order.
--
-- The keys of a task, all written by this script only:
-- - the task key (KEYS[1]), a hash: touched (the latest at written, ms since the Unix
--   epoch, as the caller sent it), hops (JSON array of the accepted hops, in index order:
--   {i, id, p, r, at, k} = hop index, handoff id, producer or false, receiver, time, handoff
--   key), path (JSON array: hop.path of the last accepted hop, absent
--   when it had none), budget (JSON array of 10 decimal strings, "" for a counter not given: the
--   limit, then the consumed count, of tokens, wall_clock_ms, tool_calls, retries, cost_micros, as
--   the last accepted hop carried them; absent when it had no budget),
--   fan and bhops (the task's latest fan-out and every hop accepted in a branch: see the
--   fan-out block below; absent for a task that never fanned out),
--   approval (the handoff id the task waits for approval of, absent when none is pending),
--   end (JSON object {agent, terminal, outcome, at, hop}, hop false when no hop was
--   accepted) and the refusal counts of the task's current round (the hop it awaits), one per
--   producer: r:e:<producer> for deliveries over an edge of the graph, r:n for those over
--   none (at most agents + 1 fields, whatever the envelopes claim); an accepted hop deletes them;
-- - one handoff key per accepted hop (KEYS[2] of its claim, named by its producer and handoff
--   id, so another producer's use of the id is another key), a string: the task key.
-- Numbers that name hops and times travel and are stored as the caller's decimal strings, never
-- through Lua's tostring (14 significant digits), so every safe integer stays exact.
--
-- Expiry: every write sets EXPIRE ttl on the task key and on the handoff key of every hop it
-- records, in the same script, so a task's keys share one deadline and go together; and a task
-- whose touched is ttl seconds or more before a request's at counts as forgotten (the
-- memory store's rule, on the services' clock). A handoff key counts only while its task's hops
-- still name it, so one outliving its task by a moment, or from a forgotten task, is ignored.
--
-- The script reads and refreshes keys they do not receive in KEYS (another task's key named by a
-- handoff key, older hops' handoff keys): Redis allows that on one node, which the store needs
-- anyway; Redis Cluster is not supported.
--
-- Changing the script changes its SHA-1, so clients load the new text on first use. Version 2
-- keeps its records under other key shapes than version 1 (<prefix>:h: hashes and
-- <prefix>:o: owners): it never reads them, and they expire on their own. The versions are
-- incompatible, not migrated: switch with drained queues or under a new prefix. Version 3
-- reads version 2's task keys, but not its refusal counts (r:<hop index>, counted per hop):
-- a task's count starts over once, and the old fields go at the task's next accepted hop.
-- Version 4 names handoff keys by producer and handoff id: a version 3 handoff key is not found,
-- so a redelivery of a handoff claimed under version 3 is caught as a replay of its hop (same
-- producer and receiver) rather than as a duplicate of its id; and tasks keep their budget.
-- Version 5 keeps the approval a task waits for (approval-pending); it reads version 4's tasks
-- as waiting for none.
-- Claim leases add the t and u fields of a hop and the "settle" operation, within version 5: a
-- script without them reads a leased hop as a committed claim, and ignores the lease arguments.
-- Version 6 adds join deadlines and policies (the fan record's dl, o, oo, en and cl, a branch's
-- e, the "join" claim reply, finish's "branch-finished" reply and the "join_state" operation):
-- it reads version 5's fan records as joins without a deadline, but a version 5 replica would
-- neither act on a policy nor see one acted on, so switch every replica together.
-- Version 7 changes how a call passes its arguments, not what it stores (the keys and records
-- are version 6's): the operation stays ARGV[1], and a claim sends each optional block (budget,
-- approval, lease, branch) only when a flag says it follows, so a first hop passes 14 arguments
-- instead of 34. Version 6 and 7 replicas share a ledger, so they may switch one by one.
-- Within version 7, a join fired after a fan-out from a task with no budget yet (one at the entry)
-- gives the task its branches' limits added up, where earlier scripts gave it none: a replica
-- on an earlier script lets the join's next hop raise or drop those limits.
--
-- Cost: an EVAL script's body runs anew on every call, and each function it defines is a new
-- closure then; so the helpers of fan-outs and joins, and of a chain's custody checks, are made
-- only by a call that needs them (fans(), custody()), and the other operations are defined after
-- claim's dispatch: a first hop of a task makes a dozen closures, not forty.

-- Every call: ARGV[1] the operation, ARGV[2] ttl (s), ARGV[3] at (ms), ARGV[4] scope ("graph" or
-- "receiver"); the operation's own ARGV follow.
--
-- ARGV[1] "claim": decides one delivery and keeps its task's ledger.
-- KEYS[1] <prefix>:t:<task_id>  the task's ledger   KEYS[2] <prefix>:a:<handoff_id>  the handoff
-- ARGV[5] handoff_id  ARGV[6] hop index  ARGV[7] verdict  ARGV[8] receiver  ARGV[9] producer or ""
-- ARGV[10] flags, in decimal: the sum of 1 when there is a producer, 2 when ARGV[5] and ARGV[6]
--   are usable, 4 when a budget follows, 8 when approval facts follow (graphs of envelope 1.4 and
--   later), 16 when the delivery waits for review, 32 when it cites a handoff (which follows), 64
--   when a lease follows, 128 when the delivery travels in a fan-out branch (its block follows)
-- ARGV[11] refusal count name  ARGV[12] path length or -1, ARGV[13..] path
-- then, after the path, each block only when its flag is set, in this order:
-- 4: 5 limits, then 5 consumed counts ("" for one not given)
-- 32: the handoff it cites (approval.pending_handoff_id, lower case)
-- 64: the lease until (ms), the claim attempt's token, the envelope's digest or "" (see "Claim
--   leases" below)
-- 128: branch id, fan-out name, supervisor, branch agent, "1" when it opens the branch, "1" when it
--   arrives at the join, join agent or "", join need or "", sibling count, sibling ids..., then
--   the join's within in ms or "", its otherwise ("escalate" or a terminal of the join agent) and
--   that terminal's outcome or "" (the join block below)
-- Reply: {"claimed"} | {"claimed", lease until} | {"leased", holder id, holder receiver, holder at, until}
--      | {"claimed", "join", agent, "1" when fired, hop or "", arrived count,
--        arrived..., waiting count, waiting..., consumed count, (counter, value)...}
--      | {"noted", attempt} | {"owner-conflict", owner, attempt}
--      | {"duplicate", "handoff" or "hop", holder id, holder receiver, holder at}
--      | {"custody", owner or "", last hop or "", attempt, fault...}, a fault: "reset" | "skip"
--        | "producer" | "path", index, expected | "budget-limit" or "budget-consumed", counter,
--        the last accepted hop's value, its hop index | "approval", the pending handoff id
--        | "approval-cite", the task's last accepted handoff id ("" when it has none) | "budget-overcommitted", counter,
--        the branch's limit or "", the parent's limit, its spend, the fan-out's hop, the limits taken
--      | {"finished", agent, terminal, outcome, at, hop index or ""}
--      | {"branch", state, join or "", hop or "", attempt or "", missing count, missing...,
--        arrived count, arrived...}, state "open" | "late" | "arrived" | "unopened" | "reopened" | "ended"
--      | {"join", closed...}: the task's join was given up on; closed = state ("expired" or
--        "failed"), join agent, policy, "1" when this call acted on it, deadline or "", missing
--        count, missing..., ended count, ended... (the join block below)
--
-- ARGV[1] "finish": records that a task ended.
-- KEYS[1] <prefix>:t:<task_id>  the task's ledger
-- ARGV[5] agent  ARGV[6] terminal  ARGV[7] outcome  ARGV[8] "1" when the agent is an entry of the graph
-- Reply: {"finished" or "already-finished", agent, terminal, outcome, at, hop index or ""}
--      | {"branch-finished", branch id, agent, terminal, outcome, at, the branch's last hop}
--      | {"not-owner", owner or "", last hop or ""} | {"branch-open", join, missing count, missing...}
--      "finished" and "branch-finished" are followed by "join", closed... when the call acted on
--      the join's policy.
--
-- ARGV[1] "join_state": the task's join, acting on its policy once when it was given up on.
-- KEYS[1] <prefix>:t:<task_id>  the task's ledger
-- Reply: {"none"} | {state, join agent, policy, "1" when this call acted, deadline or "",
--        missing count, missing..., ended count, ended..., arrived count, arrived...}, state
--        "waiting" | "fired" | "expired" | "failed"
--
-- ARGV[1] "settle": commits or releases a leased claim (see "Claim leases" below).
-- KEYS[1] <prefix>:t:<task_id>  the task's ledger
-- ARGV[5] handoff_id  ARGV[6] producer  ARGV[7] "1" when there is a producer  ARGV[8] token
-- ARGV[9] "commit" or "release"
-- Reply: {"committed"} | {"released"} | {"lost"} | {"lost", holder id, holder receiver, holder at}

local op = ARGV[1]
local ttl = tonumber(ARGV[2])
local at = ARGV[3]
local now = tonumber(at)
local graph_wide = ARGV[4] == "graph"

-- The task at `key`, or nil when there is none or it is forgotten (idle ttl seconds or more by
-- the request's clock); the second value says whether a forgotten one must be deleted first.
-- refusals lists the task's r: fields (what an accepted hop clears). One HGETALL: for a new task
-- it passes Redis one argument, not the eight field names of an HMGET, and a claim needs no
-- HKEYS to find the counts it clears.
local function load(key)
  local all = redis.call("HGETALL", key)
  local f, refusals = {}, {}
  for i = 1, #all, 2 do
    local field = all[i]
    f[field] = all[i + 1]
    if string.sub(field, 1, 2) == "r:" then table.insert(refusals, field) end
  end
  if not f.touched then return nil, false end
  if now - tonumber(f.touched) >= ttl * 1000 then return nil, true end
  return {
    touched = f.touched,
    hops = f.hops and cjson.decode(f.hops) or {},
    path = f.path and cjson.decode(f.path) or nil,
    ended = f["end"] and cjson.decode(f["end"]) or nil,
    budget = f.budget and cjson.decode(f.budget) or nil,
    approval = f.approval or nil,
    fan = f.fan and cjson.decode(f.fan) or nil,
    bhops = f.bhops and cjson.decode(f.bhops) or {},
    refusals = refusals,
  }, false
end

-- The latest time written to `task` (the memory store's touch: never backwards).
local function touched(task)
  if task and tonumber(task.touched) > now then return task.touched end
  return at
end

-- Refreshes the expiry of the task key and of the handoff key of each of its hops: one deadline.
-- `more` (optional): the hops accepted in branches, which share it.
local function refresh(key, hops, more)
  redis.call("EXPIRE", key, ttl)
  for _, hop in ipairs(hops) do redis.call("EXPIRE", hop.k, ttl) end
  for _, hop in ipairs(more or {}) do redis.call("EXPIRE", hop.k, ttl) end
end

-- Starts the write of a task: a forgotten one is deleted whole first.
local function fresh(key, task, stale)
  if not task and stale then redis.call("DEL", key) end
end

local function ended_reply(outcome, e)
  return {outcome, e.agent, e.terminal, e.outcome, e.at, e.hop or ""}
end

-- Claim leases (rule lease-held). A claim made with a lease (a claim request's "lease until"
-- and token) records its hop with t (the token), u (until when the lease holds it, ms as the
-- caller's decimal string) and d (the envelope's digest); a commit drops u and keeps t. While u
-- is live, a redelivery of the handoff to its receiver is "leased"; once it ran out, the next
-- one with the same digest takes the claim over under its own token, in this same script (so two
-- replicas racing on it cannot both win); other content under the id is a duplicate. A hop
-- that is no longer its task's last (the task moved on), or of a task that ended, is committed.

-- The answer to a redelivery of hop h (this very handoff), or nil when h is not an open lease of
-- this receiver (then it is a duplicate). `refuse` counts a refusal; `save` writes the hops.
local function lease_redelivery(h, task, hops, receiver, verdict, lease_until, token, digest, refuse, save)
  local last = hops[#hops]
  if not h.u or h.r ~= receiver or task.ended or last.i ~= h.i or last.id ~= h.id then return nil end
  if now < tonumber(h.u) then return {"leased", h.id, h.r, h.at, h.u} end
  -- Other content under the claimed handoff_id is no redelivery: a duplicate of the id.
  if h.d and h.d ~= digest then return nil end
  -- A redelivery the content checks now refuse does not take the claim: it is counted.
  if verdict ~= "accepted" or lease_until == "" or token == "" then return {"noted", refuse()} end
  h.t, h.u, h.at = token, lease_until, at
  save()
  return {"claimed", h.u}
end

-- approval-pending: a task with no accepted hop has no handoff that waited for the approval a
-- delivery cites (graph scope): "approval-cite" with "" for the expected handoff.
local function first_hop_approval(approval, faults)
  if graph_wide and approval and approval.cites then
    table.insert(faults, "approval-cite")
    table.insert(faults, "")
  end
end

-- The checks of a chain of custody (step 4 of claim), made on first need (see the top): a
-- first hop of a task needs none of them.
local custody_checks = nil
local function custody()
  if custody_checks then return custody_checks end
  -- The budget counters, in the envelope schema's order (the order of the budget arguments).
  local COUNTERS = {"tokens", "wall_clock_ms", "tool_calls", "retries", "cost_micros"}

  -- approval-pending: while the task waits for approval of a handoff, only the delivery citing it
  -- goes on; with none pending, an approval cites the task's last accepted handoff (graph scope).
  local function approval_faults(approval, task, last, faults)
    if not approval then return end
    if task.approval then
      if approval.cites ~= task.approval then
        table.insert(faults, "approval")
        table.insert(faults, task.approval)
      end
    elseif approval.cites and graph_wide and approval.cites ~= last.id then
      table.insert(faults, "approval-cite")
      table.insert(faults, last.id)
    end
  end

  -- Every fault of a delivery at `index` against a chain of custody (the task's, or a branch's)
  -- whose last accepted hop is `last`, with the path and budget it recorded: the steps of claim's
  -- step 4. `split` (a branch's delegation): the budget is a share of the parent's (budget-overcommitted).
  local function chain_faults(index, producer, path, budget, last, recorded, recorded_budget, split)
    local faults = {}
    local last_index = tonumber(last.i)
    if index <= last_index then table.insert(faults, "reset") end
    if graph_wide then
      if index > last_index + 1 then table.insert(faults, "skip") end
      local not_owner = producer ~= last.r
      if not_owner then table.insert(faults, "producer") end
      if path and recorded then
        -- Entry last_index is the owner itself: already named by a producer fault.
        local stop = math.min(#recorded, #path, not_owner and last_index or last_index + 1)
        for i = 1, stop do
          if path[i] ~= recorded[i] then
            table.insert(faults, "path")
            table.insert(faults, tostring(i - 1))
            table.insert(faults, recorded[i])
            break
          end
        end
      end
    end
    if split then
      split(budget, faults)
    elseif budget and recorded_budget then
      -- Budgets hold across hops: no limit raised or dropped, no spend lowered or hidden.
      for c, counter in ipairs(COUNTERS) do
        local limit_before, spent_before = recorded_budget[c], recorded_budget[5 + c]
        local limit, spent = budget[c], budget[5 + c]
        if limit_before ~= "" and (limit == "" or tonumber(limit) > tonumber(limit_before)) then
          for _, item in ipairs({"budget-limit", counter, limit_before, last.i}) do table.insert(faults, item) end
        end
        if spent_before ~= "" and (spent == "" or tonumber(spent) < tonumber(spent_before)) then
          for _, item in ipairs({"budget-consumed", counter, spent_before, last.i}) do table.insert(faults, item) end
        end
      end
    end
    return faults
  end
  custody_checks = {COUNTERS = COUNTERS, approval_faults = approval_faults, chain_faults = chain_faults}
  return custody_checks
end

-- Fan-outs and joins, made on first need (see the top): only for a call on a task that fanned
-- out, or a delivery in a branch.
local fan_helpers = nil
local function fans()
  if fan_helpers then return fan_helpers end
  local checks = custody()
  local COUNTERS, approval_faults, chain_faults = checks.COUNTERS, checks.approval_faults, checks.chain_faults

  -- Fan-outs: rules branch-unknown, branch-open, branch-late and budget-overcommitted (the memory
  -- store's claimInBranch, seen-store.ts, decides the same, in the same order). The task's latest
  -- fan-out is its JSON field fan: {f = name, s = supervisor, b = the task's last hop index when it
  -- fanned out (text; "-1" when a receiver's store never saw it), base = that hop or false, bp and
  -- bb = its path and budget or false, sib = the fan-out's branch ids, j = join agent or false,
  -- n = how many branches the join needs (text), br = {[branch id] = {o = its delegation or
  -- false, h = its accepted hops in order, p and bu = the path and budget of its last or false,
  -- a = the hop that reached the join or false}}, order = branch ids in opening order, arr =
  -- branch ids in arrival order, fired = the arrival that met the join's condition or false}.
  -- bhops is every hop accepted in a branch of the task, for duplicates and expiry.

  -- An integer as exact decimal text (tostring keeps only 14 significant digits).
  local function num(n) return string.format("%.0f", n) end

  -- The branch block of a claim's arguments, from ARGV[from] (see the top).
  local function branch_args(from)
    local b = {
      id = ARGV[from], f = ARGV[from + 1], s = ARGV[from + 2], agent = ARGV[from + 3],
      opens = ARGV[from + 4] == "1", arrives = ARGV[from + 5] == "1",
      j = ARGV[from + 6] ~= "" and ARGV[from + 6] or false, n = ARGV[from + 7], sib = {},
    }
    local count = tonumber(ARGV[from + 8])
    for i = 1, count do b.sib[i] = ARGV[from + 8 + i] end
    -- Join deadlines: within (ms) or "", otherwise, the policy terminal's outcome or "".
    b.w, b.o, b.oo = ARGV[from + 9 + count], ARGV[from + 10 + count], ARGV[from + 11 + count]
    return b
  end

  -- The branches of fan-out record `fan` that have not arrived at its join, in sibling order.
  local function not_arrived(fan)
    local missing = {}
    for _, id in ipairs(fan.sib) do
      local arrived = false
      for _, a in ipairs(fan.arr) do if a == id then arrived = true end end
      if not arrived then table.insert(missing, id) end
    end
    return missing
  end

  -- The branches a join that has not fired still waits for, or nil when nothing holds the task.
  local function waits(task)
    local fan = task and task.fan
    if not fan or not fan.j or fan.fired or fan.cl then return nil end
    return not_arrived(fan)
  end

  local function branch_reply(state, join, hop, attempt, missing, arrived)
    local reply = {"branch", state, join or "", hop or "", attempt or "", tostring(#missing)}
    for _, id in ipairs(missing) do table.insert(reply, id) end
    table.insert(reply, tostring(#arrived))
    for _, id in ipairs(arrived) do table.insert(reply, id) end
    return reply
  end

  local function late_reply(fan)
    return branch_reply("late", fan.j, fan.fired.i, "", {}, fan.arr)
  end

  -- Join deadlines and policies: rules join-expired and join-failed (the memory store's joinDue
  -- and actOnJoin, seen-store.ts, decide the same). The fan record keeps dl (the deadline, ms as
  -- text: the fan-out's first delegation plus within; false without one), o (the policy:
  -- "escalate" or a terminal of the join agent), oo (that terminal's outcome), en (the branches
  -- that ended at a terminal of their own, in order) and cl (false, or "expired" / "failed" once
  -- the policy acted); a branch keeps e (its end, {agent, terminal, outcome, at, hop}) or false.

  -- The deadline of a fan-out opened now, for the branch arguments `b`.
  local function deadline_of(b)
    if not b.j or b.w == "" then return false end
    return num(now + tonumber(b.w))
  end

  -- Whether the fan-out's join is given up on now and not acted on: "expired" once its deadline
  -- passed, else "failed" when the ended branches leave fewer than it needs; nil otherwise.
  local function join_due(fan)
    if not fan or not fan.j or fan.fired or fan.cl then return nil end
    if fan.dl and now >= tonumber(fan.dl) then return "expired" end
    local possible = 0
    for _, id in ipairs(fan.sib) do
      local gone = false
      for _, e in ipairs(fan.en or {}) do if e == id then gone = true end end
      if not gone then possible = possible + 1 end
    end
    if possible < tonumber(fan.n) then return "failed" end
    return nil
  end

  -- The words of a join given up on (see the reply shapes at the top).
  local function closed_words(fan, acts)
    local words = {fan.cl, fan.j, fan.o or "escalate", acts and "1" or "0", fan.dl or ""}
    local missing = not_arrived(fan)
    table.insert(words, tostring(#missing))
    for _, id in ipairs(missing) do table.insert(words, id) end
    local ended = fan.en or {}
    table.insert(words, tostring(#ended))
    for _, id in ipairs(ended) do table.insert(words, id) end
    return words
  end

  local function closed_reply(fan)
    local reply = {"join"}
    for _, word in ipairs(closed_words(fan, false)) do table.insert(reply, word) end
    return reply
  end

  -- Acts on the join's policy once, when it is given up on now: the join stops holding the task,
  -- and with a terminal policy the task ends there, at the join agent. The closed words with
  -- acts, or nil when nothing was due.
  local function act_on_join(key, task)
    if not task or task.ended then return nil end
    local fan = task.fan
    local due = join_due(fan)
    if not due then return nil end
    fan.cl = due
    local last = task.hops[#task.hops]
    local fields = {"fan", cjson.encode(fan), "touched", touched(task)}
    if fan.o and fan.o ~= "escalate" then
      task.ended = {agent = fan.j, terminal = fan.o, outcome = fan.oo ~= "" and fan.oo or "failed", at = at, hop = last and last.i or false}
      table.insert(fields, "end")
      table.insert(fields, cjson.encode(task.ended))
    end
    redis.call("HSET", key, unpack(fields))
    refresh(key, task.hops, task.bhops)
    return closed_words(fan, true)
  end

  -- Appends "join" and the closed words to a finish reply, when the call acted.
  local function with_join(reply, acted)
    if acted then
      table.insert(reply, "join")
      for _, word in ipairs(acted) do table.insert(reply, word) end
    end
    return reply
  end

  -- The budget-overcommitted check of a branch's delegation: the parent's budget at hop `hop`
  -- (the 10 counters, or false) and the budgets the fan-out's other branches hold.
  local function splitter(parent, hop, taken)
    return function(budget, faults)
      if not budget or not parent then return end
      for c, counter in ipairs(COUNTERS) do
        local limit_of = parent[c]
        if limit_of ~= "" then
          local spent = parent[5 + c] ~= "" and tonumber(parent[5 + c]) or 0
          local sum = 0
          for _, other in ipairs(taken) do
            if other and other[c] ~= "" then sum = sum + tonumber(other[c]) end
          end
          local limit = budget[c]
          if limit == "" or sum + tonumber(limit) > tonumber(limit_of) - spent then
            for _, item in ipairs({"budget-overcommitted", counter, limit, limit_of, num(spent), hop, num(sum)}) do table.insert(faults, item) end
          end
        end
      end
    end
  end

  -- Two budget counts added, stopping at 2^53 - 1 (the memory stores' addCounts and add_counts):
  -- beyond it a double's sum is inexact and no envelope could report it.
  local function add_counts(a, b) return math.min(a + b, 9007199254740991) end

  -- The task's budget once its join fired: the parent's limits, its spend plus every branch's.
  -- With no parent's budget (a fan-out at the entry), each limit is the sum of every branch's,
  -- and "" for a counter some branch left unlimited.
  local function joined_budget(parent, fan)
    local any = parent and true or false
    local out = {}
    for c = 1, 10 do out[c] = parent and parent[c] or "" end
    for _, id in ipairs(fan.order) do
      local bu = fan.br[id].bu
      if bu then
        any = true
        for c = 6, 10 do
          if bu[c] ~= "" then out[c] = num(add_counts(out[c] ~= "" and tonumber(out[c]) or 0, tonumber(bu[c]))) end
        end
      end
    end
    if not parent then
      for c = 1, 5 do
        local sum = 0
        for _, id in ipairs(fan.order) do
          local bu = fan.br[id].bu
          if sum and bu and bu[c] ~= "" then sum = add_counts(sum, tonumber(bu[c])) else sum = false end
        end
        if sum then out[c] = num(sum) end
      end
    end
    return any and out or nil
  end

  -- Every fault of a delivery against a chain whose last hop is `last` (nil: a task with no hop).
  local function custody_of(c, last, recorded, recorded_budget, split)
    if not last then
      local faults = {}
      if graph_wide and c.index ~= 1 then table.insert(faults, c.index < 1 and "reset" or "skip") end
      first_hop_approval(c.approval, faults)
      return faults
    end
    return chain_faults(c.index, c.producer, c.path, c.budget, last, recorded or nil, recorded_budget or nil, split)
  end

  local function custody_reply(c, last, faults)
    local reply = {"custody", last and last.r or "", last and last.i or "", c.refuse()}
    for _, fault in ipairs(faults) do table.insert(reply, fault) end
    return reply
  end

  -- Records an accepted hop `h` of branch `br` of the task's fan-out `fan` (the task's new round).
  local function save_branch_hop(c, task, fan, br, h)
    fresh(c.task_key, c.task, c.stale)
    if c.task then
      for _, field in ipairs(redis.call("HKEYS", c.task_key)) do
        if string.sub(field, 1, 2) == "r:" then redis.call("HDEL", c.task_key, field) end
      end
    end
    table.insert(br.h, h)
    br.p = c.path or false
    br.bu = c.budget or false
    table.insert(task.bhops, h)
    redis.call("HSET", c.task_key, "fan", cjson.encode(fan), "bhops", cjson.encode(task.bhops), "touched", touched(c.task))
    redis.call("SET", c.handoff_key, c.task_key)
    refresh(c.task_key, task.hops, task.bhops)
  end

  -- A delivery in a fan-out branch (steps 0 to 2 of claim ran before): the branch's delegation
  -- opens it with a share of the parent's budget; a hop inside it follows the branch's own chain;
  -- an arrival at the join is taken once, and the one that meets the join's condition moves the
  -- task on from the longest branch, with the branches' spend added back.
  local function claim_in_branch(c, b)
    local task = c.task
    local fan = task and task.fan or nil
    local current = (fan and fan.f == b.f and fan.s == b.s) and fan or nil
    local index = c.index
    local function replay_of(h) return h and h.i == c.hop and h.p == c.producer and h.r == c.receiver end
    local h = {i = c.hop, id = c.handoff_id, p = c.producer, r = c.receiver, at = at, k = c.handoff_key}
    if b.opens then
      if current and index == tonumber(current.b) + 1 then
        -- Another branch of the fan-out the task is in.
        local open = current.br[b.id]
        if open then
          if open.o and #open.h == 1 and replay_of(open.o) then return {"duplicate", "hop", open.o.id, open.o.r, open.o.at} end
          return branch_reply("reopened", "", open.o and open.o.i or "", c.refuse(), {}, {})
        end
        if current.cl then return closed_reply(current) end
        if current.fired then return late_reply(current) end
        local taken = {}
        for _, id in ipairs(current.order) do table.insert(taken, current.br[id].bu) end
        local base = current.base or nil
        local faults = custody_of(c, base, current.bp, current.bb, splitter(current.bb, current.b, taken))
        if #faults > 0 then return custody_reply(c, base, faults) end
        if c.verdict ~= "accepted" then return {"noted", c.refuse()} end
        local br = {o = h, h = {}, p = false, bu = false, a = false, e = false}
        current.br[b.id] = br
        table.insert(current.order, b.id)
        save_branch_hop(c, task, current, br, h)
        return {"claimed"}
      end
      -- A new fan-out from where the task is now: judged against its chain, like any next hop.
      local last = c.last
      local missing = waits(task)
      if missing then return branch_reply("open", task.fan.j, "", c.refuse(), missing, {}) end
      local parent = task and task.budget or false
      local faults = custody_of(c, last, task and task.path, task and task.budget, splitter(parent, last and last.i or "0", {}))
      if task and last then approval_faults(c.approval, task, last, faults) end
      if #faults > 0 then return custody_reply(c, last, faults) end
      if c.verdict ~= "accepted" then return {"noted", c.refuse()} end
      task = task or {hops = {}, bhops = {}}
      local br = {o = h, h = {}, p = false, bu = false, a = false, e = false}
      local opened = {
        f = b.f, s = b.s, b = last and last.i or num(index - 1), base = last or false,
        bp = task.path or false, bb = parent, sib = b.sib, j = b.j, n = b.n,
        br = {[b.id] = br}, order = {b.id}, arr = {}, fired = false,
        dl = deadline_of(b), o = b.o, oo = b.oo, en = {}, cl = false,
      }
      task.fan = opened
      save_branch_hop(c, task, opened, br, h)
      return {"claimed"}
    end
    -- A hop inside a branch.
    local br = current and current.br[b.id] or nil
    if not br then
      -- Graph-wide, every branch opens through this store; a receiver's store first sees it here.
      if current and current.cl then return closed_reply(current) end
      if current and current.fired then return late_reply(current) end
      if graph_wide then return branch_reply("unopened", "", "", c.refuse(), {}, {}) end
      task = task or {hops = {}, bhops = {}}
      if not current then
        current = {
          f = b.f, s = b.s, b = "-1", base = false, bp = false, bb = false, sib = b.sib, j = b.j, n = b.n, br = {}, order = {}, arr = {}, fired = false,
          dl = deadline_of(b), o = b.o, oo = b.oo, en = {}, cl = false,
        }
        task.fan = current
      end
      br = {o = false, h = {}, p = false, bu = false, a = false, e = false}
      current.br[b.id] = br
      table.insert(current.order, b.id)
    end
    if br.a then
      if replay_of(br.a) then return {"duplicate", "hop", br.a.id, br.a.r, br.a.at} end
      return branch_reply("arrived", current.j, br.a.i, "", {}, {})
    end
    if br.e then return branch_reply("ended", current.j, br.e.hop, "", {}, {}) end
    if current.cl then return closed_reply(current) end
    if current.fired then return late_reply(current) end
    local last = br.h[#br.h]
    if last and index <= tonumber(last.i) then
      if last.i == c.hop and last.r == c.receiver and last.p == c.producer then return {"duplicate", "hop", last.id, last.r, last.at} end
      local owner = nil
      for _, x in ipairs(task.hops) do if x.i == c.hop then owner = x end end
      for _, x in ipairs(br.h) do if x.i == c.hop then owner = x end end
      if owner and owner.r ~= c.receiver and not (graph_wide and c.producer == last.r) then return {"owner-conflict", owner.r, c.refuse()} end
    end
    local faults = custody_of(c, last, br.p, br.bu, nil)
    if #faults > 0 then return custody_reply(c, last, faults) end
    if c.verdict ~= "accepted" then return {"noted", c.refuse()} end
    if not (b.arrives and current.j) then
      save_branch_hop(c, task, current, br, h)
      return {"claimed"}
    end
    br.a = h
    table.insert(current.arr, b.id)
    local fired = #current.arr >= tonumber(current.n)
    local from_hop = ""
    local reply = {"claimed", "join", current.j, fired and "1" or "0"}
    if fired then
      -- The task goes on from the longest branch (the first to arrive of equals): its hops join
      -- the task's chain, its path is the task's, and every branch's spend is added back.
      current.fired = h
      save_branch_hop(c, task, current, br, h)
      local longest = nil
      for _, id in ipairs(current.arr) do
        local other = current.br[id]
        if not longest or tonumber(other.a.i) > tonumber(longest.a.i) then longest = other end
      end
      for _, x in ipairs(longest.h) do table.insert(task.hops, x) end
      redis.call("HSET", c.task_key, "hops", cjson.encode(task.hops))
      if longest.p then redis.call("HSET", c.task_key, "path", cjson.encode(longest.p)) else redis.call("HDEL", c.task_key, "path") end
      task.budget = joined_budget(current.bb, current)
      if task.budget then redis.call("HSET", c.task_key, "budget", cjson.encode(task.budget)) else redis.call("HDEL", c.task_key, "budget") end
      from_hop = longest.a.i
    else
      save_branch_hop(c, task, current, br, h)
    end
    table.insert(reply, from_hop)
    table.insert(reply, tostring(#current.arr))
    for _, id in ipairs(current.arr) do table.insert(reply, id) end
    local waiting = not_arrived(current)
    table.insert(reply, tostring(#waiting))
    for _, id in ipairs(waiting) do table.insert(reply, id) end
    local consumed = {}
    if fired and task.budget then
      for i, counter in ipairs(COUNTERS) do
        if task.budget[5 + i] ~= "" then
          table.insert(consumed, counter)
          table.insert(consumed, task.budget[5 + i])
        end
      end
    end
    table.insert(reply, tostring(#consumed / 2))
    for _, item in ipairs(consumed) do table.insert(reply, item) end
    return reply
  end
  fan_helpers = {
    act_on_join = act_on_join, branch_args = branch_args, branch_reply = branch_reply,
    claim_in_branch = claim_in_branch, closed_words = closed_words, waits = waits, with_join = with_join,
  }
  return fan_helpers
end

local function claim()
  local task_key, handoff_key = KEYS[1], KEYS[2]
  local handoff_id, hop, verdict, receiver = ARGV[5], ARGV[6], ARGV[7], ARGV[8]
  -- Whether flag `bit` of ARGV[10] is set: arithmetic, since each call of a C function (string.find,
  -- bit.band) costs a claim more than the VM's own operations.
  local flags = tonumber(ARGV[10])
  local function has(bit) return flags % (bit + bit) >= bit end
  local producer = has(1) and ARGV[9] or false
  local path = nil
  local length = tonumber(ARGV[12])
  if length >= 0 then
    path = {}
    for i = 1, length do path[i] = ARGV[12 + i] end
  end
  -- The blocks after the path, each when its flag is set (see the top); `after` is the next one's.
  local after = 13 + math.max(length, 0)
  local budget = nil
  if has(4) then
    budget = {}
    for i = 1, 10 do budget[i] = ARGV[after + i - 1] end
    after = after + 10
  end
  -- approval-pending: {waits = bool, cites = handoff id or false}; nil for a graph whose envelope
  -- has no approval record.
  local approval = nil
  if has(8) then
    approval = {waits = has(16), cites = false}
    if has(32) then
      approval.cites = ARGV[after]
      after = after + 1
    end
  end
  -- Claim leases.
  local lease_until, token, digest = "", "", ""
  if has(64) then
    lease_until, token, digest = ARGV[after], ARGV[after + 1], ARGV[after + 2]
    after = after + 3
  end
  local task, stale = load(task_key)
  local hops = task and task.hops or {}
  local last = hops[#hops]

  -- Counts a refusal in the producer's count of the task's round; returns the count, as text.
  local function refuse()
    fresh(task_key, task, stale)
    local count = redis.call("HINCRBY", task_key, "r:" .. ARGV[11], 1)
    redis.call("HSET", task_key, "touched", touched(task))
    refresh(task_key, hops, task and task.bhops)
    return tostring(count)
  end

  -- 0. No usable handoff id or hop index: nothing to key a duplicate, an owner or a turn on.
  if not has(2) then
    if task and task.ended then return ended_reply("finished", task.ended) end
    return {"noted", refuse()}
  end

  -- 1. This handoff_id was accepted before (for this task or another one still remembered).
  local ref = redis.call("GET", handoff_key)
  if ref then
    local holder_task = task
    if ref ~= task_key then holder_task = load(ref) end
    for _, h in ipairs(holder_task and holder_task.hops or {}) do
      if h.id == handoff_id and h.p == producer then
        if ref == task_key then
          local save = function()
            redis.call("HSET", task_key, "hops", cjson.encode(hops), "touched", touched(task))
            refresh(task_key, hops, task and task.bhops)
          end
          local leased = lease_redelivery(h, task, hops, receiver, verdict, lease_until, token, digest, refuse, save)
          if leased then return leased end
        end
        return {"duplicate", "handoff", h.id, h.r, h.at}
      end
    end
    for _, h in ipairs(holder_task and holder_task.bhops or {}) do
      if h.id == handoff_id and h.p == producer then return {"duplicate", "handoff", h.id, h.r, h.at} end
    end
  end

  -- Join deadlines: the first call to find the task's join given up on acts on its policy.
  if task and task.fan then
    local acted = fans().act_on_join(task_key, task)
    if acted then return fans().with_join({}, acted) end
  end

  -- 2. The task ended.
  if task and task.ended then return ended_reply("finished", task.ended) end

  -- Fan-outs: a delivery in a branch follows the branch's chain (the fan-out block above).
  local index = tonumber(hop)
  if has(128) then
    local c = {
      task_key = task_key, handoff_key = handoff_key, task = task, stale = stale, last = last,
      handoff_id = handoff_id, hop = hop, index = index, verdict = verdict, receiver = receiver,
      producer = producer, path = path, budget = budget, approval = approval, refuse = refuse,
    }
    local helpers = fans()
    return helpers.claim_in_branch(c, helpers.branch_args(after))
  end

  -- 3. This task's hop was accepted before.
  if last and index <= tonumber(last.i) then
    -- The latest step again (same producer, same receiver) under a fresh id: a replay.
    if last.i == hop and last.r == receiver and last.p == producer then return {"duplicate", "hop", last.id, last.r, last.at} end
    local owner = nil
    for _, h in ipairs(hops) do
      if h.i == hop then owner = h end
    end
    -- Another receiver, from anyone but the current owner: two owners of one hop.
    if owner and owner.r ~= receiver and not (graph_wide and producer == last.r) then
      return {"owner-conflict", owner.r, refuse()}
    end
    -- Otherwise an older number again: the counter went backwards (below).
  end

  -- Fan-outs: a join waiting for branches holds the task (branch-open).
  local missing = task and task.fan and fans().waits(task)
  if missing then return fans().branch_reply("open", task.fan.j, "", refuse(), missing, {}) end

  -- 4. Out of turn for the task: every fault of its chain of custody.
  if not last and graph_wide then
    -- Every hop of a task passes through a graph-wide store: one with no accepted hop starts at 1.
    local faults = {}
    if index ~= 1 then table.insert(faults, index < 1 and "reset" or "skip") end
    first_hop_approval(approval, faults)
    if #faults > 0 then
      local reply = {"custody", "", "", refuse()}
      for _, fault in ipairs(faults) do table.insert(reply, fault) end
      return reply
    end
  end
  if last then
    local checks = custody()
    local faults = checks.chain_faults(index, producer, path, budget, last, task.path, task.budget)
    checks.approval_faults(approval, task, last, faults)
    if #faults > 0 then
      local reply = {"custody", last.r, last.i, refuse()}
      for _, fault in ipairs(faults) do table.insert(reply, fault) end
      return reply
    end
  end

  -- 5. A rejected delivery owns nothing: it is counted.
  if verdict ~= "accepted" then return {"noted", refuse()} end

  -- 6. Claim: record the hop, the path and the handoff, all sharing the task's expiry; the next
  -- round starts with no refusals.
  -- One HSET of what the hop records and one HDEL of the fields it clears that the task has (none
  -- for a task this script holds no ledger of), and the handoff key written with its expiry: each
  -- write is a call and a command in the append-only file, and a claim's cost is mostly its calls.
  fresh(task_key, task, stale)
  local clear = task and task.refusals or {}
  local claimed = {i = hop, id = handoff_id, p = producer, r = receiver, at = at, k = handoff_key}
  -- Claim leases: the claim is held under the token until it is committed.
  if lease_until ~= "" and token ~= "" then
    claimed.t, claimed.u = token, lease_until
    if digest ~= "" then claimed.d = digest end
  end
  table.insert(hops, claimed)
  local record = {"hops", cjson.encode(hops), "touched", touched(task)}
  local function keep(field, value, held)
    if value then
      table.insert(record, field)
      table.insert(record, value)
    elseif held then
      table.insert(clear, field)
    end
  end
  keep("budget", budget and cjson.encode(budget), task and task.budget)
  keep("path", path and cjson.encode(path), task and task.path)
  -- approval-pending: a resumption answers the pending approval; a hand-back waiting for review opens one.
  keep("approval", approval and approval.waits and handoff_id, task and task.approval)
  redis.call("HSET", task_key, unpack(record))
  if #clear > 0 then redis.call("HDEL", task_key, unpack(clear)) end
  -- The older hops' handoff keys share the task's expiry; the new one gets it as it is written.
  hops[#hops] = nil
  refresh(task_key, hops, task and task.bhops)
  hops[#hops + 1] = claimed
  redis.call("SET", handoff_key, task_key, "EX", ttl)
  if claimed.u then return {"claimed", claimed.u} end
  return {"claimed"}
end

if op == "claim" then return claim() end

-- The other operations: defined after claim's dispatch, so a claim makes none of them.

-- Commits or releases the claim of handoff `handoff_id` from `producer` held under `token`.
local function settle()
  local task = load(KEYS[1])
  local producer = ARGV[7] == "1" and ARGV[6] or false
  local hops = task and task.hops or {}
  for _, h in ipairs(hops) do
    if h.id == ARGV[5] and h.p == producer then
      if h.t ~= ARGV[8] then return {"lost", h.id, h.r, h.at} end
      if not h.u then return {"committed"} end
      if ARGV[9] == "commit" then
        h.u = nil
      elseif now < tonumber(h.u) then
        h.u = at
      end
      redis.call("HSET", KEYS[1], "hops", cjson.encode(hops))
      return {ARGV[9] == "commit" and "committed" or "released"}
    end
  end
  return {"lost"}
end

-- A finish reply, with the join it acted on (fans().with_join) when it acted on one.
local function joined(reply, acted)
  if acted then return fans().with_join(reply, acted) end
  return reply
end

local function finish()
  local task_key = KEYS[1]
  local task, stale = load(task_key)
  if task and task.ended then return ended_reply("already-finished", task.ended) end
  -- Join deadlines: a join given up on acts first; its policy terminal is the join agent's end.
  local acted = task and task.fan and fans().act_on_join(task_key, task) or nil
  if task and task.ended then
    if task.ended.agent == ARGV[5] and task.ended.terminal == ARGV[6] then return joined(ended_reply("finished", task.ended), acted) end
    return ended_reply("already-finished", task.ended)
  end
  local hops = task and task.hops or {}
  local last = hops[#hops]
  -- Fan-outs: the task's end waits for its join, like its next hop (branch-open).
  local missing = graph_wide and task and task.fan and fans().waits(task) or nil
  if missing and (ARGV[5] == task.fan.j or (last and last.r == ARGV[5]) or (not last and ARGV[8] == "1")) then
    local reply = {"branch-open", task.fan.j, tostring(#missing)}
    for _, id in ipairs(missing) do table.insert(reply, id) end
    return reply
  end
  -- A branch ending at a terminal of its own: its owner closes it, and the task goes on.
  if graph_wide and task and task.fan and not (last and last.r == ARGV[5]) then
    local fan = task.fan
    for _, id in ipairs(fan.order) do
      local br = fan.br[id]
      local h = br.h[#br.h]
      if not br.a and not br.e and h and h.r == ARGV[5] then
        br.e = {agent = ARGV[5], terminal = ARGV[6], outcome = ARGV[7], at = at, hop = h.i}
        fan.en = fan.en or {}
        table.insert(fan.en, id)
        redis.call("HSET", task_key, "fan", cjson.encode(fan), "touched", touched(task))
        refresh(task_key, hops, task.bhops)
        local reply = {"branch-finished", id, br.e.agent, br.e.terminal, br.e.outcome, br.e.at, br.e.hop}
        return joined(reply, fans().act_on_join(task_key, task))
      end
    end
  end
  if graph_wide and last and last.r ~= ARGV[5] then return {"not-owner", last.r, last.i} end
  -- Never handed on: it is still with the entry agent that took it in.
  if graph_wide and not last and ARGV[8] ~= "1" then return {"not-owner", "", ""} end
  local ended = {agent = ARGV[5], terminal = ARGV[6], outcome = ARGV[7], at = at, hop = last and last.i or false}
  fresh(task_key, task, stale)
  redis.call("HSET", task_key, "end", cjson.encode(ended), "touched", touched(task))
  refresh(task_key, hops, task and task.bhops)
  return joined(ended_reply("finished", ended), acted)
end

-- The task's join (see "join_state" at the top); acts on its policy once when it is due.
local function join_state()
  local task = load(KEYS[1])
  local fan = task and task.fan
  if not fan or not fan.j then return {"none"} end
  local helpers = fans()
  local reply = helpers.act_on_join(KEYS[1], task)
  if not reply and fan.cl then reply = helpers.closed_words(fan, false) end
  if not reply then
    reply = {fan.fired and "fired" or "waiting", fan.j, fan.o or "escalate", "0", fan.dl or ""}
    local closed = helpers.closed_words(fan, false)
    for i = 6, #closed do table.insert(reply, closed[i]) end
  end
  table.insert(reply, tostring(#fan.arr))
  for _, id in ipairs(fan.arr) do table.insert(reply, id) end
  return reply
end

if op == "finish" then return finish() end
if op == "settle" then return settle() end
if op == "join_state" then return join_state() end
return redis.error_reply("seam ledger: unknown operation (claim, finish, settle or join_state)")
