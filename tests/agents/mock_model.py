# SPDX-License-Identifier: Apache-2.0
"""A model server on 127.0.0.1 for the real agent clients, scripted per turn.

Claude Code speaks the Anthropic Messages API and Codex the OpenAI Responses API, both streamed as
server-sent events. Each turn whose user prompt carries READ_MARKER is answered with one tool call
that reads `read_path` through the client's own read tool (Claude's Read, Codex's shell), then with a
short text once the tool result comes back. A turn whose prompt carries SEARCH_MARKER calls Starling's
MCP tools as the client offers them: memory_search for SEARCH_QUERY, then memory_get for the first id
the search returned, then answers. Every request body is kept, so a test can look for the context
the hooks injected and the tool results.
"""
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

READ_MARKER = "[read-the-memory]"
SEARCH_MARKER = "[search-the-memories]"
SEARCH_QUERY = "quokka dashboard"
# A memory id in memory_search's result, as text ("<id>  <score>  [<type>, <scope>]  ...") or as its
# structured content ({"id": "<id>", ...}), whichever the client gives the model.
SEARCH_HITS = (re.compile(r'"id"\s*:\s*"([0-9a-z]{7})"'), re.compile(r"\b([0-9a-z]{7})  \d+\.\d{3}  \["))


def after_latest(items, marker):
    """The items from the latest one holding `marker` on, or None when none holds it."""
    marked = [i for i, item in enumerate(items) if marker in json.dumps(item)]
    return items[marked[-1]:] if marked else None


def tool_named(tools, suffix):
    """The offered tool whose name ends in `suffix` (Starling's MCP tools, however the client names
    them: Claude's `mcp__starling__memory_search`, or a function inside Codex's `mcp__starling`
    namespace), as (name, namespace or None); None when there is none."""
    for tool in tools or []:
        if tool.get("type") == "namespace":
            for inner in tool.get("tools") or []:
                if (inner.get("name") or "").endswith(suffix):
                    return inner["name"], tool.get("name")
            continue
        name = tool.get("name") or (tool.get("function") or {}).get("name") or ""
        if name.endswith(suffix):
            return name, None
    return None


def mcp_step(tools, results):
    """The next call of a SEARCH_MARKER turn, given the tool results after its prompt (texts, in
    order): ((tool name, namespace), arguments), or None once memory_search and memory_get are
    answered. A client that defers MCP tools (Claude Code since 2.1.2xx offers `ToolSearch`, and a
    deferred tool is named only once it was fetched) is first asked to fetch them."""
    fetched = [text for call_id, text in results if call_id.endswith("ToolSearch")]
    called = [text for call_id, text in results if not call_id.endswith("ToolSearch")]

    def named(suffix):
        offered = tool_named(tools, suffix)
        if offered:
            return offered
        match = re.search(r'"name":\s*"([^"]*' + suffix + r')"', "\n".join(fetched))
        return (match.group(1), None) if match else None

    if not named("memory_search") and tool_named(tools, "ToolSearch") and not fetched:
        return (("ToolSearch", None), {"query": "select:mcp__starling__memory_search,mcp__starling__memory_get"})
    if len(called) == 0:
        tool = named("memory_search")
        return (tool, {"query": SEARCH_QUERY}) if tool else None
    if len(called) == 1:
        tool = named("memory_get")
        hit = next((found for found in (pattern.search(called[0]) for pattern in SEARCH_HITS) if found), None)
        return (tool, {"ids": [hit.group(1)]}) if tool and hit else None
    return None


def tool_results(items):
    """The tool results among `items` (Anthropic messages or Responses input items), as (the id of
    the call, its text)."""
    results = []
    for item in items:
        if not isinstance(item, dict):
            continue
        if item.get("type") in ("function_call_output", "custom_tool_call_output"):
            results.append((item.get("call_id") or "", result_text(item.get("output"))))
        for block in item.get("content") if isinstance(item.get("content"), list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                results.append((block.get("tool_use_id") or "", result_text(block.get("content"))))
    return results


def offered_tools(tools):
    return [tool.get("name") or (tool.get("function") or {}).get("name") or tool.get("type") for tool in tools or []] + \
        [json.dumps(tool)[:1500] for tool in tools or [] if "starling" in json.dumps(tool)[:200]]


def result_text(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return json.dumps(content)


def needs_read(items, tool_output_type):
    """Whether the latest prompt with READ_MARKER has had no tool output after it yet."""
    marked = [i for i, item in enumerate(items) if READ_MARKER in json.dumps(item)]
    if not marked:
        return False
    return not any(f'"{tool_output_type}"' in json.dumps(item) for item in items[marked[-1]:])


class MockModel:
    def __init__(self, read_path):
        self.read_path = read_path
        self.requests = []  # (path, body) in arrival order
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()

    def bodies(self, path_suffix):
        with self._lock:
            return [body for path, body in self.requests if path.endswith(path_suffix)]

    def _record(self, path, body):
        with self._lock:
            self.requests.append((path, body))

    def _handler(self):
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                self._json({})

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"raw": raw.decode("utf-8", "replace")}
                path = self.path.split("?")[0]
                model._record(path, body)
                if path.endswith("/messages/count_tokens"):
                    self._json({"input_tokens": 100})
                elif path.endswith("/messages"):
                    self._anthropic(body)
                elif path.endswith("/responses"):
                    self._responses(body)
                else:
                    self._json({})

            def _json(self, value):
                data = json.dumps(value).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, events):
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("connection", "close")
                self.end_headers()
                for name, data in events:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                    self.wfile.flush()
                self.close_connection = True

            # --- Anthropic Messages -------------------------------------------------------------
            def _anthropic(self, body):
                wants_read = body.get("tools") and needs_read(body.get("messages") or [], "tool_result")
                searching = after_latest(body.get("messages") or [], SEARCH_MARKER)
                call = None
                if searching is not None and body.get("tools"):
                    call = mcp_step(body.get("tools"), tool_results(searching))
                if call:
                    block = {"type": "tool_use", "id": f"toolu_mock_{call[0][0].replace('_', '')}", "name": call[0][0],
                             "input": {}}
                    delta = {"type": "input_json_delta", "partial_json": json.dumps(call[1])}
                    stop = "tool_use"
                elif wants_read:
                    block = {"type": "tool_use", "id": "toolu_mock_read", "name": "Read", "input": {}}
                    delta = {"type": "input_json_delta",
                             "partial_json": json.dumps({"file_path": model.read_path})}
                    stop = "tool_use"
                else:
                    block = {"type": "text", "text": ""}
                    delta = {"type": "text_delta", "text": "Done."}
                    stop = "end_turn"
                message = {"id": "msg_mock", "type": "message", "role": "assistant",
                           "model": body.get("model", "claude-mock"), "content": [],
                           "stop_reason": None, "stop_sequence": None,
                           "usage": {"input_tokens": 10, "output_tokens": 1}}
                if not body.get("stream"):
                    final = dict(block)
                    if call:
                        final["input"] = call[1]
                    elif block["type"] == "tool_use":
                        final["input"] = {"file_path": model.read_path}
                    else:
                        final["text"] = "Done."
                    self._json(dict(message, content=[final], stop_reason=stop))
                    return
                self._stream([
                    ("message_start", {"type": "message_start", "message": message}),
                    ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
                    ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
                    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                    ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                       "usage": {"output_tokens": 5}}),
                    ("message_stop", {"type": "message_stop"}),
                ])

            # --- OpenAI Responses ---------------------------------------------------------------
            def _responses(self, body):
                wants_read = needs_read(body.get("input") or [], "function_call_output")
                searching = after_latest(body.get("input") or [], SEARCH_MARKER)
                call = None
                if searching is not None:
                    call = mcp_step(body.get("tools"), tool_results(searching))
                response = {"id": "resp_mock", "object": "response", "status": "in_progress", "output": []}
                events = [("response.created", {"type": "response.created", "response": response})]
                if call or wants_read:
                    if call:
                        arguments = json.dumps(call[1])
                        item = {"type": "function_call", "id": "fc_mock", "call_id": f"call_mock_{call[0][0].replace('_', '')}",
                                "name": call[0][0], "arguments": arguments, "status": "completed"}
                        if call[0][1]:
                            item["namespace"] = call[0][1]
                    else:
                        arguments = json.dumps({"cmd": f"cat {model.read_path}"})
                        item = {"type": "function_call", "id": "fc_mock", "call_id": "call_mock_read",
                                "name": "exec_command", "arguments": arguments, "status": "completed"}
                    events += [
                        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                                        "item": dict(item, arguments="", status="in_progress")}),
                        ("response.function_call_arguments.delta",
                         {"type": "response.function_call_arguments.delta", "item_id": "fc_mock",
                          "output_index": 0, "delta": arguments}),
                        ("response.function_call_arguments.done",
                         {"type": "response.function_call_arguments.done", "item_id": "fc_mock",
                          "output_index": 0, "arguments": arguments}),
                        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0,
                                                       "item": item}),
                    ]
                else:
                    item = {"type": "message", "id": "msg_mock", "role": "assistant", "status": "completed",
                            "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}
                    events += [
                        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                                        "item": dict(item, content=[], status="in_progress")}),
                        ("response.output_text.delta", {"type": "response.output_text.delta", "item_id": "msg_mock",
                                                        "output_index": 0, "content_index": 0, "delta": "Done."}),
                        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0,
                                                       "item": item}),
                    ]
                completed = dict(response, status="completed", output=[item],
                                 usage={"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
                                        "input_tokens_details": {"cached_tokens": 0},
                                        "output_tokens_details": {"reasoning_tokens": 0}})
                events.append(("response.completed", {"type": "response.completed", "response": completed}))
                self._stream(events)

        return Handler
