# SPDX-License-Identifier: Apache-2.0
"""Starling with the real Claude Code, Codex, Gemini CLI, Copilot CLI and OpenCode, installed as
`starling install` installs it.

Each client runs offline against mock_model.MockModel in a scratch HOME, STARLING_HOME and CODEX_HOME.
Per client, one turn whose prompt holds a standing instruction and asks (through the mock model) to
read a memory file with the client's own read tool. What must hold, per hook event Starling installs:
the client ran the hook and accepted its reply; the memory Starling injected reached the model; the
read reinforced the memory read; the standing instruction was captured; what the user asked Starling
to keep, unrelated to the prompt, reached the model from session start. Then a turn in which the
model calls Starling's MCP tools, as `starling install` registered the server: memory_search, then
memory_get of what it found, whose results must reach the model and whose read must count as a use.
For Claude Code, `starling why` of the memory the standing instruction became must name the agent,
the session and the message it came from, and a later pin.
Starling's log must hold no error (a hook that crashed still answers, with its safe reply). Codex runs
in its default sandbox. No hook is trusted by hand and no bypass flag is used: what Starling wrote at
install is all the clients get, beside what running offline against the mock needs (a provider, no
telemetry or updates, and for headless Gemini the project folder trusted for the run, as its trust
dialog would), the folder of the memory files made readable, and Starling's two MCP tools allowed
where the client would otherwise ask.

Usage: real_clients.py --build BINARY_DIR --clients NODE_BIN_DIR [--clients NODE_BIN_DIR...]
                       [--only claude|codex|gemini|copilot|opencode] [--keep]
Copilot unpacks itself into $COPILOT_PKG_CACHE_HOME when that is set (tests/agents/run sets it), else
into the scratch home. Exit status 0 when every check passed; each failed check is printed with what
was seen instead.
"""
import argparse
import json
import os
import pathlib
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from mock_model import (MockModel, READ_MARKER, SEARCH_MARKER, SUBAGENT_MARKER, SUBAGENT_TASK,  # noqa: E402
                        after_latest, offered_tools, tool_results)

INJECTED_MEMORY = "Zanzibar deploys happen on Tuesdays only, never on Fridays."
READ_MEMORY = "The quokka dashboard lives at dash.example.test and tracks build health."
STANDING_INSTRUCTION = "From now on, always run the linter before committing."
# Kept through the decision policy, as `starling remember TEXT` keeps it; the prompt never names it.
KEPT_PREFERENCE = "I prefer tabs over spaces in every wombat repository."
PROMPT = f"When do zanzibar deploys happen? {STANDING_INSTRUCTION} {READ_MARKER}"
# Answered by the mock model with memory_search, then memory_get of what it found (READ_MEMORY).
SEARCH_PROMPT = f"Look up in my memories where that dashboard is. {SEARCH_MARKER}"
# Given after the compaction, in the same session: what the user asked to keep must reach it again.
AFTER_COMPACTION_PROMPT = "Which wombat repository did we talk about?"
# Answered by the mock model with the Agent tool (Claude Code) or spawn_agent (Codex), which starts a subagent
# on SUBAGENT_TASK.
SUBAGENT_PROMPT = f"Have a subagent look at the files. {SUBAGENT_MARKER}"
# Typed by the user to Claude Code run as a custom agent (`--agent reviewer`): its hooks carry agent_type,
# and the prompt is still the user's.
AGENT_MODE_PROMPT = "Check the error handling in the payment module."


class Checks:
    def __init__(self):
        self.failures = []

    def check(self, client, what, ok, seen=""):
        status = "ok  " if ok else "FAIL"
        print(f"{status} {client}: {what}" + ("" if ok else f"\n       seen: {seen}"), flush=True)
        if not ok:
            self.failures.append(f"{client}: {what}")


class Scratch:
    """A scratch home with Starling's store, two memories, and the clients' folders."""

    def __init__(self, build, root):
        self.build = pathlib.Path(build).resolve()
        self.root = pathlib.Path(root)
        self.home = self.root / "home"
        self.starling_home = self.root / "starling"
        self.codex_home = self.root / "codex"
        self.project = self.root / "project"
        for folder in (self.home, self.starling_home, self.codex_home, self.project):
            folder.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(self.project)], check=True)
        (self.starling_home / "starling.toml").write_text('[log]\nlevel = "debug"\n')
        self.env = dict(os.environ, HOME=str(self.home), STARLING_HOME=str(self.starling_home),
                        CODEX_HOME=str(self.codex_home))
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "CLAUDE_CONFIG_DIR"):
            self.env.pop(name, None)
        self.injected_key = self.remember(INJECTED_MEMORY)
        self.read_key = self.remember(READ_MEMORY)
        # Its key changes when reads promote it to the long-term tier; its id never does.
        self.read_id = next(e["id"] for e in json.loads(self.starling("list", "--json").stdout) if e["key"] == self.read_key)
        kept = json.loads(self.starling("remember", "--json", KEPT_PREFERENCE).stdout)
        if kept["action"] != "created":
            raise RuntimeError(f"starling remember kept nothing of {KEPT_PREFERENCE!r}: {kept['reason']}")

    def starling(self, *arguments, check=True):
        result = subprocess.run([str(self.build / "starling"), *arguments], env=self.env, capture_output=True,
                                text=True, timeout=120)
        if check and result.returncode != 0:
            raise RuntimeError(f"starling {' '.join(arguments)} failed: {result.stderr}")
        return result

    def remember(self, text):
        out = self.starling("remember", "--force", "--type", "reference", "--scope", "user", "--json", text)
        return json.loads(out.stdout)["key"]

    def memory_file(self, key):
        return self.starling_home / key

    def access_count(self, key):
        self.starling("wait")
        for entry in json.loads(self.starling("list", "--json").stdout):
            if entry["key"] == key:
                return entry["access_count"]
        return None

    def uses_of(self, memory_id):
        self.starling("wait")
        return next((e["access_count"] for e in json.loads(self.starling("list", "--json").stdout) if e["id"] == memory_id),
                    None)

    def log(self):
        path = self.starling_home / "logs" / "starling.log"
        return path.read_text() if path.exists() else ""

    def captured(self, text):
        sessions = self.starling_home / "sessions"
        return any(text in f.read_text() for f in sessions.glob("*.jsonl")) if sessions.exists() else False


def injected_text_reached(model, path_suffix, text=INJECTED_MEMORY):
    return any(text in json.dumps(body, ensure_ascii=False) for body in model.bodies(path_suffix))


def mcp_results_reached(model, path_suffix, read_id):
    """What the model got back after the SEARCH_MARKER prompt: 'reached' when one tool result names
    `read_id` (memory_search) and a later one holds the memory's text (memory_get), else what it got."""
    results, tools = [], []
    for body in model.bodies(path_suffix):
        turn = after_latest(body.get("messages") or body.get("input") or body.get("contents") or [], SEARCH_MARKER)
        if turn is not None:
            results, tools = tool_results(turn), offered_tools(body.get("tools"))
    texts = [text for _, text in results]
    searched = [i for i, text in enumerate(texts) if read_id in text]
    read = [i for i, text in enumerate(texts) if READ_MEMORY in text and searched and i > searched[0]]
    return "reached" if searched and read else f"tool results {texts!r}; tools offered {tools}"


def run_bounded(arguments, cwd, env, timeout, done=None):
    """Runs a client with no standard input until it exits or for `timeout` seconds, after which its
    whole process group is killed (MCP servers and hooks included), so that a hung client fails its
    checks instead of hanging the suite. What the client left running in its group is ended too.
    `done`, when given, tells whether the run did what it is for: from then on the client has 5 s to
    exit before it is ended (Copilot, after a compaction, often waits a minute for nothing)."""
    process = subprocess.Popen(arguments, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    end, finished = time.time() + timeout, None
    while True:
        try:
            stdout, stderr = process.communicate(timeout=0.2)
            break
        except subprocess.TimeoutExpired:
            now = time.time()
            if finished is None and done is not None and done():
                finished = now
            if now > end or (finished is not None and now > finished + 5):
                os.killpg(process.pid, signal.SIGKILL)
                stdout, stderr = process.communicate()
                stderr += f"\n[killed after {timeout} s]" if now > end else "\n[ended 5 s after it was done]"
                break
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return subprocess.CompletedProcess(arguments, process.returncode, stdout, stderr)


def json_lines(text):
    """The JSON objects among the lines of `text`."""
    found = []
    for line in text.splitlines():
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def client_env(scratch, **variables):
    """The scratch environment for a client run in the project. PWD too: OpenCode (a Bun binary) takes
    its project folder from it rather than from the working directory."""
    return dict(scratch.env, PWD=str(scratch.project), **variables)


def check_context_reached(checks, client, model, path_suffix):
    """The context every client must pass on, seen in the requests to the model: the memory injected
    for the prompt, and what the user asked to keep, from session start."""
    missing = f"no {path_suffix} request body holds it"
    checks.check(client, "the injected memory reached the model", injected_text_reached(model, path_suffix), missing)
    checks.check(client, "what the user asked to keep reached the model from session start",
                 injected_text_reached(model, path_suffix, KEPT_PREFERENCE), missing)


def check_mcp_reached(checks, client, model, path_suffix, read_id):
    outcome = mcp_results_reached(model, path_suffix, read_id)
    checks.check(client, "memory_search then memory_get through MCP returned the memory to the model",
                 outcome == "reached", outcome[-3000:])


def check_store_effects(checks, client, scratch, uses_before_mcp):
    """What every client's turns must leave in the store: the memory_get of the MCP turn counted as a
    use (uses_before_mcp is None when that turn never ran), and the standing instruction captured."""
    uses_after_mcp = scratch.uses_of(scratch.read_id)
    checks.check(client, "the memory_get of a memory reinforced it",
                 uses_before_mcp is not None and uses_after_mcp > uses_before_mcp,
                 f"access count {uses_before_mcp} -> {uses_after_mcp}")
    checks.check(client, "the standing instruction was captured", scratch.captured(STANDING_INSTRUCTION),
                 "no session log holds it")


def check_why_names_origin(checks, client, scratch, agent, session):
    """`starling why` of the memory the standing instruction became names the agent, the session and
    the message it was captured from, and a later event (a pin) after them."""
    scratch.starling("wait")
    listed = json.loads(scratch.starling("list", "--all", "--json").stdout)
    memory = next((entry for entry in listed if "linter" in entry["summary"]), None)
    if memory is None:
        checks.check(client, "starling why names the agent, session and message of a captured memory", False,
                     f"no memory holds the standing instruction: {json.dumps(listed)[:1500]}")
        return
    scratch.starling("pin", memory["id"])
    why = json.loads(scratch.starling("why", "--json", memory["id"]).stdout)
    origin = why.get("origin") or {}
    message = (why.get("origin_message") or {}).get("text", "")
    events = [event["event"] for event in why.get("events", [])]
    checks.check(client, "starling why names the agent, session and message of a captured memory",
                 origin.get("agent") == agent and origin.get("session") == session and session != "" and
                 STANDING_INSTRUCTION in message, json.dumps(why)[:1500])
    checks.check(client, "starling why lists the later events, the pin last", events[-1:] == ["pinned"], events)
    printed = scratch.starling("why", memory["id"]).stdout
    checks.check(client, "starling why prints the origin readably",
                 f"created by {agent} in session {session}" in printed and STANDING_INSTRUCTION in printed,
                 printed[:1500])


def run_claude(scratch, clients, checks):
    scratch.starling("install", "claude-code")
    settings = json.loads((scratch.home / ".claude" / "settings.json").read_text())
    events = sorted(settings["hooks"])
    with MockModel(str(scratch.memory_file(scratch.read_key))) as model:
        env = dict(scratch.env, ANTHROPIC_BASE_URL=model.base_url, ANTHROPIC_API_KEY="sk-mock",
                   DISABLE_TELEMETRY="1", DISABLE_AUTOUPDATER="1", DISABLE_ERROR_REPORTING="1",
                   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
        before = scratch.access_count(scratch.read_key)
        stream, debug = [], ""
        session = ""
        # One turn, then a compaction of the same session (PreCompact, and SessionStart "compact") and
        # a turn after it, then a session whose turn starts a subagent (SubagentStart), then a session
        # run as a custom agent.
        agents = scratch.project / ".claude" / "agents"
        agents.mkdir(parents=True)
        (agents / "reviewer.md").write_text("---\nname: reviewer\ndescription: Reviews code changes.\n---\n"
                                            "You review code.\n")
        for name, arguments in (("turn", ["-p", PROMPT, "--add-dir", str(scratch.starling_home),
                                          "--allowedTools", "Read"]),
                                ("compaction", ["-p", "/compact", "--resume", "<session>"]),
                                ("turn after the compaction", ["-p", AFTER_COMPACTION_PROMPT, "--resume", "<session>"]),
                                ("subagent", ["-p", SUBAGENT_PROMPT, "--allowedTools", "Agent"]),
                                ("turn as a custom agent", ["-p", AGENT_MODE_PROMPT, "--agent", "reviewer"])):
            arguments = [session if a == "<session>" else a for a in arguments]
            debug_file = scratch.root / f"claude-{name.replace(' ', '-')}-debug.log"
            run = subprocess.run([str(clients / "claude"), *arguments, "--output-format", "stream-json", "--verbose",
                                  "--include-hook-events", "--debug-file", str(debug_file)],
                                 cwd=scratch.project, env=env, capture_output=True, text=True, timeout=300)
            checks.check("claude", f"the {name} completed", run.returncode == 0, run.stderr[-2000:])
            for line in run.stdout.splitlines():
                try:
                    stream.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
            session = session or next((m.get("session_id") for m in stream if m.get("session_id")), "")
            debug += debug_file.read_text() if debug_file.exists() else ""
        for event in events:
            outcome = claude_hook_outcome(stream, debug, event)
            checks.check("claude", f"{event}: the hook ran and its reply was accepted", outcome == "accepted", outcome)
        check_context_reached(checks, "claude", model, "/messages")
        after_compaction = [json.dumps(body, ensure_ascii=False) for body in model.bodies("/messages")]
        after_compaction = [text for text in after_compaction if AFTER_COMPACTION_PROMPT in text]
        checks.check("claude", "what the user asked to keep reached the model again after the compaction",
                     bool(after_compaction) and all(KEPT_PREFERENCE in text for text in after_compaction),
                     f"{len(after_compaction)} requests of the turn after it; the first: "
                     f"{(after_compaction or [''])[0][-3000:]}")
        check_kept_reached_subagent(checks, "claude", [json.dumps(body, ensure_ascii=False)
                                                       for body in model.bodies("/messages")], every=False)
        check_subagent_task_not_captured(checks, "claude", scratch)
        checks.check("claude", "a prompt to Claude Code run as a custom agent was captured as the user's",
                     scratch.captured(AGENT_MODE_PROMPT), scratch.log()[-1500:])
        after = scratch.access_count(scratch.read_key)
        uses_before_mcp = scratch.uses_of(scratch.read_id)
        # Mid-session, through Starling's MCP server as `starling install` registered it (~/.claude.json).
        run = subprocess.run([str(clients / "claude"), "-p", SEARCH_PROMPT, "--allowedTools",
                              "ToolSearch,mcp__starling__memory_search,mcp__starling__memory_get", "--output-format", "stream-json",
                              "--verbose"], cwd=scratch.project, env=env, capture_output=True, text=True, timeout=300)
        checks.check("claude", "the MCP turn completed", run.returncode == 0, run.stderr[-2000:])
        check_mcp_reached(checks, "claude", model, "/messages", scratch.read_id)
    check_store_effects(checks, "claude", scratch, uses_before_mcp)
    check_why_names_origin(checks, "claude", scratch, "claude-code", session)
    checks.check("claude", "the Read of a memory file reinforced it",
                 f"read of {scratch.read_key} in session {session}" in scratch.log() and after > before,
                 f"access count {before} -> {after}; log: {scratch.log()[-1500:]}")


def claude_hook_outcome(stream, debug, event):
    """'accepted' when Claude ran the event's Starling hook, it exited 0, and a JSON reply passed
    Claude's validation; otherwise what Claude reported instead."""
    responses = [m for m in stream if m.get("subtype") == "hook_response" and m.get("hook_event") == event]
    if not responses:
        # Hooks that run outside a turn (PreCompact, SessionEnd) are not in the output stream; the
        # debug log has "<event>:<matcher> [<command>] completed with status <code>".
        runs = [line for line in debug.splitlines() if f" {event}:" in line and "starling-claude" in line and
                "completed with status" in line]
        if not runs:
            return f"no hook_response for {event} in the output stream, nor a run in the debug log"
        return "accepted" if all(line.endswith("completed with status 0") for line in runs) else runs[0][-300:]
    for response in responses:
        if response.get("exit_code") != 0 or response.get("outcome") != "success":
            return json.dumps(response)[:400]
        stdout = (response.get("stdout") or "").strip()
        if stdout.startswith("{") and f"Hook {event}" not in debug:
            return f"{event} replied JSON that the debug log does not show accepted"
    if "Successfully parsed and validated hook JSON output" not in debug:
        return "no hook JSON output was validated"
    return "accepted"


class AppServer:
    """`codex app-server`: JSON-RPC over stdio, notifications kept in order."""

    def __init__(self, codex, env, cwd):
        self.process = subprocess.Popen([str(codex), "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env, cwd=cwd, text=True)
        self.messages = []
        self._next_id = 0
        self._arrived = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue
            self.messages.append(message)
            self._arrived.put(message)

    def request(self, method, params, timeout=120):
        self._next_id += 1
        self.process.stdin.write(json.dumps({"id": self._next_id, "method": method, "params": params}) + "\n")
        self.process.stdin.flush()
        return self.wait_for(lambda m: m.get("id") == self._next_id, timeout)

    def notify(self, method):
        self.process.stdin.write(json.dumps({"method": method}) + "\n")
        self.process.stdin.flush()

    def wait_for(self, predicate, timeout=120):
        end = time.time() + timeout
        seen = 0
        while time.time() < end:
            for message in self.messages[seen:]:
                if predicate(message):
                    return message
            seen = len(self.messages)
            try:
                self._arrived.get(timeout=0.2)
            except queue.Empty:
                pass
        raise TimeoutError("no such message from codex app-server")

    def notifications(self, method):
        return [m["params"] for m in self.messages if m.get("method") == method]

    def close(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def run_codex(scratch, clients, checks):
    scratch.starling("install", "codex")
    hooks = json.loads((scratch.codex_home / "hooks.json").read_text())
    events = sorted(hooks["hooks"])
    with MockModel(str(scratch.memory_file(scratch.read_key))) as model:
        config = scratch.codex_home / "config.toml"
        provider = (f'model = "gpt-mock"\nmodel_provider = "mock"\ncheck_for_update_on_startup = false\n'
                    f'approval_policy = "never"\n\n[analytics]\nenabled = false\n\n'
                    f'[model_providers.mock]\nname = "mock"\nbase_url = "{model.base_url}/v1"\nwire_api = "responses"\n'
                    f'env_key = "MOCK_API_KEY"\n\n')
        config.write_text(provider + (config.read_text() if config.exists() else ""))
        env = dict(scratch.env, MOCK_API_KEY="sk-mock")
        server = AppServer(clients / "codex", env, scratch.project)
        before = scratch.access_count(scratch.read_key)
        read_before_mcp = before
        uses_before_mcp = scratch.uses_of(scratch.read_id)
        try:
            server.request("initialize", {"clientInfo": {"name": "starling-agents-test", "version": "1"}})
            server.notify("initialized")
            listed = server.request("hooks/list", {"cwds": [str(scratch.project)]})
            untrusted = [(h["key"], h["trustStatus"]) for entry in listed["result"]["data"] for h in entry["hooks"]
                         if h["trustStatus"] not in ("trusted", "managed")]
            checks.check("codex", "every installed hook is trusted (hooks/list)", not untrusted, untrusted)
            thread = server.request("thread/start", {"cwd": str(scratch.project)})["result"]["thread"]["id"]
            server.request("turn/start", {"threadId": thread, "input": [{"type": "text", "text": PROMPT}]})
            server.wait_for(lambda m: m.get("method") == "turn/completed", 300)
            turns = len(server.notifications("turn/completed"))
            server.request("thread/compact/start", {"threadId": thread})
            try:
                server.wait_for(lambda m: len(server.notifications("turn/completed")) > turns, 120)
            except TimeoutError:
                pass  # the PreCompact check below says what was missing
            # Mid-session, through Starling's MCP server as `starling install` registered it (config.toml).
            read_before_mcp = scratch.access_count(scratch.read_key)
            uses_before_mcp = scratch.uses_of(scratch.read_id)
            run_codex_turn(server, thread, SEARCH_PROMPT)  # the MCP checks below say what was missing
            # A turn that starts a subagent (spawn_agent, then wait_agent): SubagentStart.
            run_codex_turn(server, thread, SUBAGENT_PROMPT)
        finally:
            server.close()
        completed = server.notifications("hook/completed")
        (scratch.root / "codex-hooks.json").write_text(json.dumps(server.notifications("hook/started") + completed, indent=1))
        for event in events:
            if event == "SessionEnd":
                # Codex runs it as the app-server shuts down, after its last notification.
                print("skip codex: SessionEnd: runs at shutdown, after the app-server's last notification")
                continue
            outcome = hook_outcome_in_codex(completed, event)
            checks.check("codex", f"{event}: the hook ran and its reply was accepted", outcome == "accepted", outcome)
        check_context_reached(checks, "codex", model, "/responses")
        modes = sorted({m for body in model.bodies("/responses")
                        for m in re.findall(r'sandbox_mode\\?":\\?"([a-z-]+)', json.dumps(body))})
        checks.check("codex", "the turns ran in Codex's default sandbox", modes and "danger-full-access" not in modes,
                     modes)
        check_mcp_reached(checks, "codex", model, "/responses", scratch.read_id)
        # The subagent's requests say so in their client metadata.
        check_kept_reached_subagent(checks, "codex", [json.dumps(body.get("input"), ensure_ascii=False)
                                                      for body in model.bodies("/responses")
                                                      if (body.get("client_metadata") or {}).get("x-openai-subagent")])
    check_subagent_task_not_captured(checks, "codex", scratch)
    after = scratch.access_count(scratch.read_key)
    checks.check("codex", "a shell `cat` of a memory file reinforced it",
                 f"read of {scratch.read_key} in session" in scratch.log() and read_before_mcp > before,
                 f"access count {before} -> {read_before_mcp}")
    check_store_effects(checks, "codex", scratch, uses_before_mcp)


def check_kept_reached_subagent(checks, client, requests, every=True):
    """What the user asked to keep is in the subagent's requests to the model (`every` one, or at
    least one): those of `requests` (texts) that hold SUBAGENT_TASK and not the user's prompt."""
    of_subagent = [text for text in requests if SUBAGENT_TASK in text and SUBAGENT_MARKER not in text]
    reached = (all if every else any)(KEPT_PREFERENCE in text for text in of_subagent)
    checks.check(client, "what the user asked to keep reached the subagent from its start",
                 bool(of_subagent) and reached,
                 f"{len(of_subagent)} requests of the subagent; the first: {(of_subagent or [''])[0][-3000:]}")


def check_subagent_task_not_captured(checks, client, scratch):
    """The task the parent's model wrote for a subagent is not in the session log as the user's words
    (Codex runs UserPromptSubmit inside the subagent with it); the user's prompt that started it is."""
    checks.check(client, "the subagent's task was not captured as the user's prompt",
                 scratch.captured(SUBAGENT_PROMPT) and not scratch.captured(SUBAGENT_TASK),
                 f"the user's prompt captured: {scratch.captured(SUBAGENT_PROMPT)}, "
                 f"the subagent's task captured: {scratch.captured(SUBAGENT_TASK)}")


def run_codex_turn(server, thread, text):
    """Starts a turn of `thread` and waits for that thread's turn/completed (a subagent's own turn
    completes first, in a thread of its own); a turn that never completes is left to the checks."""
    turns = len([n for n in server.notifications("turn/completed") if n.get("threadId") == thread])
    server.request("turn/start", {"threadId": thread, "input": [{"type": "text", "text": text}]})
    try:
        server.wait_for(lambda m: len([n for n in server.notifications("turn/completed")
                                       if n.get("threadId") == thread]) > turns, 300)
    except TimeoutError:
        pass


def hook_outcome_in_codex(completed, event):
    """'accepted' when every run of the event's hook completed with no error entry, else what the
    app-server reported."""
    runs = [c["run"] for c in completed if c.get("run", {}).get("eventName") == event[0].lower() + event[1:]]
    if not runs:
        return f"no hook/completed notification for {event}"
    for run in runs:
        errors = [entry for entry in run.get("entries", []) if entry.get("kind") == "error"]
        if run.get("status") != "completed" or errors:
            return json.dumps({"status": run.get("status"), "entries": run.get("entries")})[:400]
    return "accepted"


# Starling's two MCP tools run without a confirmation, as --allowedTools lets them for Claude Code;
# headless Gemini otherwise leaves every tool that would ask out of what it offers the model.
GEMINI_POLICY = """[[rule]]
mcpName = "starling"
toolName = ["memory_search", "memory_get"]
decision = "allow"
priority = 100
"""


def run_gemini(scratch, clients, checks):
    scratch.starling("install", "gemini")
    path = scratch.home / ".gemini" / "settings.json"
    settings = json.loads(path.read_text())
    events = sorted(settings["hooks"])
    # Offline against the mock: an API key's auth (with the base URL alone Gemini picks a gateway auth
    # that headless runs reject), and no telemetry, usage statistics or updates.
    settings.setdefault("security", {}).setdefault("auth", {})["selectedType"] = "gemini-api-key"
    settings.setdefault("privacy", {})["usageStatisticsEnabled"] = False
    settings.setdefault("telemetry", {})["enabled"] = False
    settings.setdefault("general", {}).update(enableAutoUpdate=False, enableAutoUpdateNotification=False)
    path.write_text(json.dumps(settings, indent=2))
    policy = scratch.root / "gemini-policy.toml"
    policy.write_text(GEMINI_POLICY)
    with MockModel(str(scratch.memory_file(scratch.read_key))) as model:
        # Headless Gemini starts only in a trusted folder, and loads hooks only there: the variable
        # trusts the project for the run, as the user's answer to the trust dialog would.
        env = client_env(scratch, GOOGLE_GEMINI_BASE_URL=model.base_url, GEMINI_API_KEY="mock-key",
                         GEMINI_CLI_TRUST_WORKSPACE="true")
        gemini = [str(clients / "gemini"), "--output-format", "stream-json", "--debug"]
        before = scratch.access_count(scratch.read_key)
        run = run_bounded(gemini + ["-p", PROMPT, "--include-directories", str(scratch.starling_home)],
                          scratch.project, env, 180)
        checks.check("gemini", "the turn completed", run.returncode == 0, run.stderr[-2000:])
        session = next((m["session_id"] for m in json_lines(run.stdout) if m.get("type") == "init"), "")
        debug = run.stderr
        after = scratch.access_count(scratch.read_key)
        uses_before_mcp = scratch.uses_of(scratch.read_id)
        # A session of its own, through Starling's MCP server as `starling install` registered it.
        run = run_bounded(gemini + ["-p", SEARCH_PROMPT, "--policy", str(policy)], scratch.project, env, 180)
        checks.check("gemini", "the MCP turn completed", run.returncode == 0, run.stderr[-2000:])
        debug += run.stderr
        # A session whose prompt the mock model answers with invoke_agent: a subagent (BeforeTool).
        run = run_bounded(gemini + ["-p", SUBAGENT_PROMPT], scratch.project, env, 180)
        checks.check("gemini", "the subagent turn completed", run.returncode == 0, run.stderr[-2000:])
        debug += run.stderr
        (scratch.root / "gemini-debug.log").write_text(debug)
        for event in events:
            outcome = gemini_hook_outcome(debug, event)
            checks.check("gemini", f"{event}: the hook ran and its reply was accepted", outcome == "accepted", outcome)
        check_context_reached(checks, "gemini", model, ":streamGenerateContent")
        check_mcp_reached(checks, "gemini", model, ":streamGenerateContent", scratch.read_id)
        check_kept_reached_subagent(checks, "gemini", [json.dumps(body.get("contents"), ensure_ascii=False)
                                                       for body in model.bodies(":streamGenerateContent")])
    check_subagent_task_not_captured(checks, "gemini", scratch)
    check_store_effects(checks, "gemini", scratch, uses_before_mcp)
    checks.check("gemini", "the read_file of a memory file reinforced it",
                 bool(session) and f"read of {scratch.read_key} in session {session}" in scratch.log() and after > before,
                 f"session {session!r}; access count {before} -> {after}; log: {scratch.log()[-1500:]}")


def gemini_hook_outcome(debug, event):
    """'accepted' when Gemini's debug output shows the event's Starling hook run and every execution
    of the event's hooks succeeded (exit 0: Gemini then parses the reply as JSON, and takes plain
    text for a message to the user), else what it showed. Whether the context got to the model is
    checked on the requests."""
    lines = debug.splitlines()
    runs = [line for line in lines if line.startswith("Expanding hook command:") and "starling" in line and
            re.search(rf"\bgemini {event}\b", line)]
    if not runs:
        return f"no Starling hook command for {event} in Gemini's debug output"
    results = [line for line in lines if line.startswith(f"Hook execution for {event}:")]
    if not results:
        return f"no hook execution result for {event} in Gemini's debug output"
    failed = [line for line in results if "hooks executed successfully" not in line]
    errors = [line for line in lines if line.startswith("Hook execution error") or f"failed for event {event}" in line]
    return "accepted" if not failed else "; ".join(failed + errors)[:600]


def run_copilot(scratch, clients, checks):
    scratch.starling("install", "copilot")
    hooks = json.loads((scratch.home / ".copilot" / "hooks" / "starling.json").read_text())
    events = sorted(hooks["hooks"])
    with MockModel(str(scratch.memory_file(scratch.read_key))) as model:
        # A provider of the user's own (BYOK) needs no GitHub login; offline mode also turns off
        # telemetry, the GitHub MCP server and updates.
        env = client_env(scratch, COPILOT_OFFLINE="true", COPILOT_PROVIDER_BASE_URL=model.base_url + "/v1",
                         COPILOT_PROVIDER_API_KEY="sk-mock", COPILOT_MODEL="gpt-4.1", COPILOT_AUTO_UPDATE="false")
        copilot = [str(clients / "copilot"), "--output-format", "json", "--log-level", "debug",
                   "--log-dir", str(scratch.root / "copilot-logs")]
        before = scratch.access_count(scratch.read_key)
        run = run_bounded(copilot + ["-p", PROMPT, "--add-dir", str(scratch.starling_home)], scratch.project, env, 180)
        checks.check("copilot", "the turn completed", run.returncode == 0, run.stderr[-2000:])
        session = next((m.get("sessionId") for m in json_lines(run.stdout) if m.get("type") == "result"), "")
        # A compaction of the same session (preCompact), done once the session records it.
        events_file = scratch.home / ".copilot" / "session-state" / (session or "none") / "events.jsonl"

        def compacted():
            return events_file.exists() and any(m.get("type") == "session.compaction_complete" and
                                                m.get("data", {}).get("success") for m in json_lines(events_file.read_text()))

        run = run_bounded(copilot + ["-p", "/compact", "--resume", session or "none"], scratch.project, env, 180,
                          done=compacted)
        checks.check("copilot", "the compaction completed", compacted(), (run.stderr or run.stdout)[-2000:])
        after = scratch.access_count(scratch.read_key)
        uses_before_mcp = scratch.uses_of(scratch.read_id)
        # A session of its own, through Starling's MCP server as `starling install` registered it.
        run = run_bounded(copilot + ["-p", SEARCH_PROMPT, "--allow-tool=starling(memory_search)",
                                     "--allow-tool=starling(memory_get)"], scratch.project, env, 180)
        checks.check("copilot", "the MCP turn completed", run.returncode == 0, run.stderr[-2000:])
        # A session whose prompt the mock model answers with the task tool: a subagent (subagentStart).
        run = run_bounded(copilot + ["-p", SUBAGENT_PROMPT, "--allow-tool=task"], scratch.project, env, 180)
        checks.check("copilot", "the subagent turn completed", run.returncode == 0, run.stderr[-2000:])
        # Each session's events.jsonl has a hook.start and a hook.end (success, the reply as parsed) per run.
        recorded = [m for f in sorted((scratch.home / ".copilot" / "session-state").glob("*/events.jsonl"))
                    for m in json_lines(f.read_text()) if m.get("type") in ("hook.start", "hook.end")]
        (scratch.root / "copilot-hooks.json").write_text(json.dumps(recorded, indent=1))
        for event in events:
            outcome = copilot_hook_outcome(recorded, event)
            checks.check("copilot", f"{event}: the hook ran and its reply was accepted", outcome == "accepted", outcome)
        check_context_reached(checks, "copilot", model, "/chat/completions")
        check_mcp_reached(checks, "copilot", model, "/chat/completions", scratch.read_id)
        check_kept_reached_subagent(checks, "copilot", [json.dumps(body.get("messages"), ensure_ascii=False)
                                                        for body in model.bodies("/chat/completions")])
    check_subagent_task_not_captured(checks, "copilot", scratch)
    check_store_effects(checks, "copilot", scratch, uses_before_mcp)
    checks.check("copilot", "the view of a memory file reinforced it",
                 bool(session) and f"read of {scratch.read_key} in session {session}" in scratch.log() and after > before,
                 f"session {session!r}; access count {before} -> {after}; log: {scratch.log()[-1500:]}")


def copilot_hook_outcome(recorded, event):
    """'accepted' when Copilot recorded runs of the event's hook and each ended in success, else
    what it recorded. Copilot keeps of a reply only the fields it knows, so a context in another
    shape is dropped silently: the requests to the model show whether it got through."""
    started = [m["data"] for m in recorded if m["type"] == "hook.start" and m.get("data", {}).get("hookType") == event]
    ended = [m["data"] for m in recorded if m["type"] == "hook.end" and m.get("data", {}).get("hookType") == event]
    if not started:
        return f"no hook.start for {event} in the sessions' events.jsonl"
    if len(ended) < len(started) or any(run.get("success") is not True for run in ended):
        return json.dumps(ended)[:600] or f"{len(started)} run(s) of {event} started, none ended"
    return "accepted"


class OpenCodeServer:
    """`opencode serve` on a free port of 127.0.0.1, driven through its HTTP API: a session can be
    compacted (PreCompact) and deleted (SessionEnd) there, which `opencode run` cannot do."""

    def __init__(self, opencode, env, cwd, log_path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self._log_path = pathlib.Path(log_path)
        self._log = open(log_path, "w")
        self.process = subprocess.Popen([str(opencode), "serve", "--hostname", "127.0.0.1", "--port", str(self.port),
                                         "--print-logs"], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                        stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)
        end = time.time() + 120
        while True:
            try:
                self.call("GET", "/global/health", timeout=5)
                return
            except (OSError, urllib.error.URLError):
                if self.process.poll() is not None or time.time() > end:
                    self.close()
                    raise RuntimeError(f"opencode serve did not answer on port {self.port}; see {log_path}")
                time.sleep(0.2)

    def call(self, method, path, body=None, timeout=60):
        """The decoded JSON answer, or None for an empty one; raises on an HTTP error or a timeout."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = response.read()
        return json.loads(data) if data.strip() else None

    def errors(self):
        """The lines OpenCode logged at level ERROR, cut short."""
        if not self._log.closed:
            self._log.flush()
        return [line[:400] for line in self._log_path.read_text(errors="replace").splitlines() if "level=ERROR" in line]

    def close(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log.close()


def run_opencode(scratch, clients, checks):
    scratch.starling("install", "opencode")
    folder = scratch.home / ".config" / "opencode"
    plugin = (folder / "plugins" / "starling.js").read_text()
    # OpenCode runs no command hooks: the events are those the installed plugin passes on to Starling.
    events = sorted(set(re.findall(r'"(SessionStart|UserPromptSubmit|PostToolUse|PreCompact|Stop|SessionEnd)"', plugin)))
    with MockModel(str(scratch.memory_file(scratch.read_key))) as model:
        path = folder / "opencode.json"
        config = json.loads(path.read_text()) if path.exists() else {}
        config.update({"autoupdate": False, "share": "disabled", "model": "mock/mock-model",
                       "small_model": "mock/mock-model"})
        config.setdefault("provider", {})["mock"] = {
            "npm": "@ai-sdk/openai-compatible", "name": "Mock",
            "options": {"baseURL": model.base_url + "/v1", "apiKey": "sk-mock"},
            "models": {"mock-model": {"name": "Mock", "tool_call": True, "limit": {"context": 128000, "output": 4096}}}}
        # The memory files are outside the project: reading there is allowed, as --add-dir allows it
        # for Claude Code; Starling's `mcp` entry is kept as installed.
        config.setdefault("permission", {}).update({"read": "allow", "external_directory": "allow"})
        path.write_text(json.dumps(config, indent=2))
        env = client_env(scratch, OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_MODELS_FETCH="1",
                         OPENCODE_DISABLE_LSP_DOWNLOAD="1")
        before = scratch.access_count(scratch.read_key)
        after = uses_before_mcp = None
        session, turns_completed, judged_after_turn = "", False, 0
        server = OpenCodeServer(clients / "opencode", env, scratch.project, scratch.root / "opencode-serve.log")

        def step(name, method, route, body=None, timeout=180):
            try:
                answer = server.call(method, route, body, timeout)
            except (OSError, urllib.error.URLError, json.JSONDecodeError) as failure:
                answer, seen = None, repr(failure)
            else:
                error = (answer or {}).get("info", {}).get("error") if isinstance(answer, dict) else None
                seen = json.dumps(error) if error else ""
            completed = answer not in (None, False) and not seen
            checks.check("opencode", f"the {name} completed", completed,
                         f"{seen or json.dumps(answer)[:600]}; OpenCode logged: {server.errors()[-2:]}")
            return answer if completed else None

        try:
            session = (step("session creation", "POST", "/session", {}) or {}).get("id", "")
            turns_completed = step("turn", "POST", f"/session/{session}/message",
                                   {"parts": [{"type": "text", "text": PROMPT}]}) is not None
            # Stop runs once OpenCode goes idle after the turn: Starling then judges the turn's message
            # for capture, and the session's state counts it. Before the compaction nothing else does.
            judged_after_turn = judged_messages(scratch, session, wait=20)
            step("compaction", "POST", f"/session/{session}/summarize", {"providerID": "mock", "modelID": "mock-model"})
            after = scratch.access_count(scratch.read_key)
            uses_before_mcp = scratch.uses_of(scratch.read_id)
            # Mid-session, through Starling's MCP server as `starling install` registered it (opencode.json).
            turns_completed &= step("MCP turn", "POST", f"/session/{session}/message",
                                    {"parts": [{"type": "text", "text": SEARCH_PROMPT}]}) is not None
            # A turn the mock model answers with the task tool: a subagent in a child session.
            step("subagent turn", "POST", f"/session/{session}/message",
                 {"parts": [{"type": "text", "text": SUBAGENT_PROMPT}]})
            step("session deletion", "DELETE", f"/session/{session}")
        finally:
            server.close()
        for event in events:
            outcome = opencode_hook_outcome(model, scratch, session, turns_completed, judged_after_turn, event)
            if outcome.startswith("skip"):
                print(f"skip opencode: {event}: {outcome[5:]}")
                continue
            checks.check("opencode", f"{event}: the hook ran and its reply was accepted", outcome == "accepted", outcome)
        check_context_reached(checks, "opencode", model, "/chat/completions")
        check_mcp_reached(checks, "opencode", model, "/chat/completions", scratch.read_id)
        # OpenCode's hidden title agent sends the system prompt through the same plugin hook: the
        # plugin leaves it without the session's memory.
        titles = [body for body in model.bodies("/chat/completions") if not body.get("tools")]
        title_systems = [m.get("content") for body in titles for m in body.get("messages") or [] if m.get("role") == "system"]
        checks.check("opencode", "the title generator's request got no memory in its system prompt",
                     bool(titles) and not any(KEPT_PREFERENCE in json.dumps(content) for content in title_systems),
                     f"{len(titles)} title request(s); their system messages: {json.dumps(title_systems)[:800]}")
        # The title generator's requests (no tools) may hold the task too: they are not the subagent's.
        check_kept_reached_subagent(checks, "opencode", [json.dumps(body.get("messages"), ensure_ascii=False)
                                                         for body in model.bodies("/chat/completions")
                                                         if body.get("tools")])
    check_subagent_task_not_captured(checks, "opencode", scratch)
    check_store_effects(checks, "opencode", scratch, uses_before_mcp)
    checks.check("opencode", "the read of a memory file reinforced it",
                 bool(session) and f"read of {scratch.read_key} in session {session}" in scratch.log() and
                 after is not None and after > before,
                 f"session {session!r}; access count {before} -> {after}; log: {scratch.log()[-1500:]}")


def judged_messages(scratch, session, wait):
    """How many of the session's messages Starling judged for capture when a turn stopped, as its
    state for the session counts them; waits up to `wait` seconds for there to be any."""
    state = scratch.starling_home / "sessions" / f"{session}.state.jsonl"
    end = time.time() + wait
    while True:
        scratch.starling("wait")
        judged = max((m.get("evaluated") or 0 for m in json_lines(state.read_text())), default=0) \
            if session and state.exists() else 0
        if judged or time.time() > end:
            return judged
        time.sleep(0.5)


def opencode_hook_outcome(model, scratch, session, turns_completed, judged_after_turn, event):
    """OpenCode runs plugins in its own process and reports none of their hook runs, so an event
    counts as run and answered by what Starling's reply did: 'accepted' when that shows, a reason
    starting with 'skip' when the reply has nothing to show, else what was seen."""
    if event == "SessionStart":
        # Into the system prompt of the agent the user talks to (the requests that offer tools).
        system = [m for body in model.bodies("/chat/completions") if body.get("tools")
                  for m in body.get("messages") or [] if m.get("role") == "system"]
        return "accepted" if any(KEPT_PREFERENCE in json.dumps(m, ensure_ascii=False) for m in system) else \
            "no system message of the agent's requests holds what Starling gives at session start"
    if event == "UserPromptSubmit":
        # Starling logged both prompts for the session, and OpenCode took the messages with the part
        # the plugin adds for Starling's answer (it fails a turn whose added part it finds invalid).
        log = scratch.starling_home / "sessions" / f"{session}.jsonl"
        logged = [m.get("message") for m in json_lines(log.read_text())] if session and log.exists() else []
        missing = [prompt for prompt in (PROMPT, SEARCH_PROMPT) if prompt not in logged]
        if missing or not turns_completed:
            return f"prompts Starling did not log for {session!r}: {missing}; both turns completed: {turns_completed}"
        return "accepted"
    if event == "PostToolUse":
        return "accepted" if f"read of {scratch.read_key} in session {session}" in scratch.log() else \
            "Starling logged no read of the memory file in the session"
    if event == "Stop":
        return "accepted" if judged_after_turn else \
            "Starling judged no message of the session after the first turn (its state counts none)"
    return "skip not observable: OpenCode reports no plugin hook run, and Starling's reply to it carries nothing " \
           "to the model nor leaves a trace of its own in the store"


class ClientFolders:
    """The folders --clients named: `folders / NAME` is the executable NAME of the first one holding it."""

    def __init__(self, folders):
        self.folders = [pathlib.Path(folder) for folder in folders]

    def __truediv__(self, name):
        return next((folder / name for folder in self.folders if (folder / name).exists()), self.folders[0] / name)


RUNS = (("claude", run_claude), ("codex", run_codex), ("gemini", run_gemini), ("copilot", run_copilot),
        ("opencode", run_opencode))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True, help="folder holding starling and its hook binaries")
    parser.add_argument("--clients", required=True, action="append",
                        help="a folder holding client executables (claude, codex, gemini, copilot, opencode)")
    parser.add_argument("--only", choices=[name for name, _ in RUNS])
    parser.add_argument("--keep", action="store_true", help="keep the scratch folders")
    arguments = parser.parse_args()
    clients = ClientFolders(arguments.clients)
    checks = Checks()
    for name, run in RUNS:
        if arguments.only and arguments.only != name:
            continue
        root = tempfile.mkdtemp(prefix=f"starling-agents-{name}-")
        try:
            scratch = Scratch(arguments.build, root)
            run(scratch, clients, checks)
            # A hook that crashed or failed answers with its safe reply and exits 0: no client reports it.
            errors = [line for line in scratch.log().splitlines() if re.match(r"(\S+ )?error ", line)]
            checks.check(name, "Starling's log holds no error", not errors, errors[-5:])
        except Exception as failure:  # a client that cannot run at all fails its checks, not the suite
            checks.check(name, "the client ran", False, repr(failure))
        finally:
            if arguments.keep or checks.failures:
                print(f"     scratch kept: {root}")
            else:
                shutil.rmtree(root, ignore_errors=True)
    print(f"{len(checks.failures)} failed check(s)" if checks.failures else "every check passed")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
