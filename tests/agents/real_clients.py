# SPDX-License-Identifier: Apache-2.0
"""Starling with the real Claude Code and Codex CLIs, installed as `starling install` installs it.

Each client runs offline against mock_model.MockModel in a scratch HOME, STARLING_HOME and CODEX_HOME.
Per client, one turn whose prompt holds a standing instruction and asks (through the mock model) to
read a memory file with the client's own read tool. What must hold, per hook event Starling installs:
the client ran the hook and accepted its reply; the memory Starling injected reached the model; the
read reinforced the memory read; the standing instruction was captured; what the user asked Starling
to keep, unrelated to the prompt, reached the model from session start. Then a turn in which the
model calls Starling's MCP tools, as `starling install` registered the server: memory_search, then
memory_get of what it found, whose results must reach the model and whose read must count as a use.
Codex runs in its default sandbox. Nothing is trusted by hand and no bypass flag is used: what
Starling wrote at install is all the clients get.

Usage: real_clients.py --build BINARY_DIR --clients NODE_BIN_DIR [--only claude|codex] [--keep]
Exit status 0 when every check passed; each failed check is printed with what was seen instead.
"""
import argparse
import json
import os
import pathlib
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from mock_model import MockModel, READ_MARKER, SEARCH_MARKER, after_latest, offered_tools, tool_results  # noqa: E402

INJECTED_MEMORY = "Zanzibar deploys happen on Tuesdays only, never on Fridays."
READ_MEMORY = "The quokka dashboard lives at dash.example.test and tracks build health."
STANDING_INSTRUCTION = "From now on, always run the linter before committing."
# Kept through the decision policy, as `starling remember TEXT` keeps it; the prompt never names it.
KEPT_PREFERENCE = "I prefer tabs over spaces in every wombat repository."
PROMPT = f"When do zanzibar deploys happen? {STANDING_INSTRUCTION} {READ_MARKER}"
# Answered by the mock model with memory_search, then memory_get of what it found (READ_MEMORY).
SEARCH_PROMPT = f"Look up in my memories where that dashboard is. {SEARCH_MARKER}"


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
        turn = after_latest(body.get("messages") or body.get("input") or [], SEARCH_MARKER)
        if turn is not None:
            results, tools = tool_results(turn), offered_tools(body.get("tools"))
    texts = [text for _, text in results]
    searched = [i for i, text in enumerate(texts) if read_id in text]
    read = [i for i, text in enumerate(texts) if READ_MEMORY in text and searched and i > searched[0]]
    return "reached" if searched and read else f"tool results {texts!r}; tools offered {tools}"


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
        # One turn, then a compaction of the same session (PreCompact, and SessionStart "compact").
        for name, arguments in (("turn", ["-p", PROMPT, "--add-dir", str(scratch.starling_home),
                                          "--allowedTools", "Read"]),
                                ("compaction", ["-p", "/compact", "--resume", "<session>"])):
            arguments = [session if a == "<session>" else a for a in arguments]
            debug_file = scratch.root / f"claude-{name}-debug.log"
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
        checks.check("claude", "the injected memory reached the model", injected_text_reached(model, "/messages"),
                     "no /v1/messages request body holds it")
        checks.check("claude", "what the user asked to keep reached the model from session start",
                     injected_text_reached(model, "/messages", KEPT_PREFERENCE), "no /v1/messages request body holds it")
        after = scratch.access_count(scratch.read_key)
        uses_before_mcp = scratch.uses_of(scratch.read_id)
        # Mid-session, through Starling's MCP server as `starling install` registered it (~/.claude.json).
        run = subprocess.run([str(clients / "claude"), "-p", SEARCH_PROMPT, "--allowedTools",
                              "ToolSearch,mcp__starling__memory_search,mcp__starling__memory_get", "--output-format", "stream-json",
                              "--verbose"], cwd=scratch.project, env=env, capture_output=True, text=True, timeout=300)
        checks.check("claude", "the MCP turn completed", run.returncode == 0, run.stderr[-2000:])
        outcome = mcp_results_reached(model, "/messages", scratch.read_id)
        checks.check("claude", "memory_search then memory_get through MCP returned the memory to the model",
                     outcome == "reached", outcome[-2000:])
    uses_after_mcp = scratch.uses_of(scratch.read_id)
    checks.check("claude", "the memory_get of a memory reinforced it", uses_after_mcp > uses_before_mcp,
                 f"access count {uses_before_mcp} -> {uses_after_mcp}")
    checks.check("claude", "the Read of a memory file reinforced it",
                 f"read of {scratch.read_key} in session {session}" in scratch.log() and after > before,
                 f"access count {before} -> {after}; log: {scratch.log()[-1500:]}")
    checks.check("claude", "the standing instruction was captured", scratch.captured(STANDING_INSTRUCTION),
                 "no session log holds it")


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
            turns = len(server.notifications("turn/completed"))
            server.request("turn/start", {"threadId": thread, "input": [{"type": "text", "text": SEARCH_PROMPT}]})
            try:
                server.wait_for(lambda m: len(server.notifications("turn/completed")) > turns, 300)
            except TimeoutError:
                pass  # the MCP checks below say what was missing
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
        checks.check("codex", "the injected memory reached the model", injected_text_reached(model, "/responses"),
                     "no /v1/responses request body holds it")
        checks.check("codex", "what the user asked to keep reached the model from session start",
                     injected_text_reached(model, "/responses", KEPT_PREFERENCE), "no /v1/responses request body holds it")
        modes = sorted({m for body in model.bodies("/responses")
                        for m in re.findall(r'sandbox_mode\\?":\\?"([a-z-]+)', json.dumps(body))})
        checks.check("codex", "the turns ran in Codex's default sandbox", modes and "danger-full-access" not in modes,
                     modes)
        outcome = mcp_results_reached(model, "/responses", scratch.read_id)
        checks.check("codex", "memory_search then memory_get through MCP returned the memory to the model",
                     outcome == "reached", outcome[-3000:])
    after = scratch.access_count(scratch.read_key)
    checks.check("codex", "a shell `cat` of a memory file reinforced it",
                 f"read of {scratch.read_key} in session" in scratch.log() and read_before_mcp > before,
                 f"access count {before} -> {read_before_mcp}")
    uses_after_mcp = scratch.uses_of(scratch.read_id)
    checks.check("codex", "the memory_get of a memory reinforced it", uses_after_mcp > uses_before_mcp,
                 f"access count {uses_before_mcp} -> {uses_after_mcp}")
    checks.check("codex", "the standing instruction was captured", scratch.captured(STANDING_INSTRUCTION),
                 "no session log holds it")


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True, help="folder holding starling and its hook binaries")
    parser.add_argument("--clients", required=True, help="folder holding the claude and codex executables")
    parser.add_argument("--only", choices=["claude", "codex"])
    parser.add_argument("--keep", action="store_true", help="keep the scratch folders")
    arguments = parser.parse_args()
    clients = pathlib.Path(arguments.clients)
    checks = Checks()
    for name, run in (("claude", run_claude), ("codex", run_codex)):
        if arguments.only and arguments.only != name:
            continue
        root = tempfile.mkdtemp(prefix=f"starling-agents-{name}-")
        try:
            run(Scratch(arguments.build, root), clients, checks)
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
