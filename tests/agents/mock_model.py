# SPDX-License-Identifier: Apache-2.0
"""A model server on 127.0.0.1 for the real agent clients, scripted per turn.

Claude Code speaks the Anthropic Messages API, Codex the OpenAI Responses API, Gemini CLI the Gemini
API (generateContent, streamGenerateContent, countTokens), Copilot CLI and OpenCode OpenAI Chat
Completions; the turns are streamed as server-sent events. Each turn whose user prompt carries
READ_MARKER is answered with one tool call that reads `read_path` through the client's own read tool
(Claude's Read, Codex's shell, Gemini's read_file, Copilot's view, OpenCode's read), then with a
short text once the tool result comes back. A turn whose prompt carries SUBAGENT_MARKER starts a
subagent on SUBAGENT_TASK (Claude's Agent tool; Codex's spawn_agent, then wait_agent; Gemini's
invoke_agent; Copilot's and OpenCode's task), whose own turn answers with a short text (a Gemini
subagent with complete_task). A turn whose prompt carries SEARCH_MARKER calls Starling's
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
SUBAGENT_MARKER = "[start-a-subagent]"
SUBAGENT_TASK = "List the top-level files of this project and say nothing else."
SEARCH_QUERY = "quokka dashboard"
# A memory id in memory_search's result, as text ("<id>  <score>  [<type>, <scope>]  ...") or as its
# structured content ({"id": "<id>", ...}), whichever the client gives the model.
SEARCH_HITS = (re.compile(r'"id"\s*:\s*"([0-9a-z]{7})"'), re.compile(r"\b([0-9a-z]{7})  \d+\.\d{3}  \["))


def without_tool_results(item):
    """`item` less the tool results in it: a marker counts in what the user or a hook wrote, not in a
    memory a tool returned (a memory may quote a prompt)."""
    if not isinstance(item, dict) or item.get("role") == "tool" or \
            item.get("type") in ("function_call_output", "custom_tool_call_output"):
        return None
    kept = dict(item)
    for field in ("content", "parts"):
        if isinstance(kept.get(field), list):
            kept[field] = [part for part in kept[field] if not (isinstance(part, dict) and (
                part.get("type") == "tool_result" or "functionResponse" in part))]
    return kept


def marked(item, marker):
    return marker in json.dumps(without_tool_results(item))


def after_latest(items, marker):
    """The items from the latest one holding `marker` on, or None when none holds it."""
    holding = [i for i, item in enumerate(items) if marked(item, marker)]
    return items[holding[-1]:] if holding else None


def declared_tools(tools):
    """The offered tools, with Gemini's groups of functionDeclarations opened up."""
    flat = []
    for tool in tools or []:
        if isinstance(tool, dict) and "functionDeclarations" in tool:
            flat += tool.get("functionDeclarations") or []
        elif isinstance(tool, dict):
            flat.append(tool)
    return flat


def tool_named(tools, suffix):
    """The offered tool whose name ends in `suffix` (Starling's MCP tools, however the client names
    them: Claude's `mcp__starling__memory_search`, a function inside Codex's `mcp__starling`
    namespace, Copilot's `starling-memory_search`), as (name, namespace or None); None when there is
    none."""
    for tool in declared_tools(tools):
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
    """The tool results among `items` (Anthropic messages, Responses input items, Chat Completions
    messages or Gemini contents), as (the id of the call, its text)."""
    results = []
    for item in items:
        if not isinstance(item, dict):
            continue
        if item.get("role") == "tool":
            results.append((item.get("tool_call_id") or "", result_text(item.get("content"))))
        for part in item.get("parts") if isinstance(item.get("parts"), list) else []:
            response = part.get("functionResponse") if isinstance(part, dict) else None
            if isinstance(response, dict):
                results.append((response.get("id") or response.get("name") or "", result_text(response.get("response"))))
        if item.get("type") in ("function_call_output", "custom_tool_call_output"):
            results.append((item.get("call_id") or "", result_text(item.get("output"))))
        for block in item.get("content") if isinstance(item.get("content"), list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                results.append((block.get("tool_use_id") or "", result_text(block.get("content"))))
    return results


def offered_tools(tools):
    tools = declared_tools(tools)
    return [tool.get("name") or (tool.get("function") or {}).get("name") or tool.get("type") for tool in tools] + \
        [json.dumps(tool)[:1500] for tool in tools if "starling" in json.dumps(tool)[:200]]


def result_text(content):
    """The text of a tool result: a string, a list of text parts, or (Gemini) a response object
    whose `output` or `content` holds it."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    if isinstance(content, dict):
        for field in ("output", "content", "llmContent"):
            if isinstance(content.get(field), (str, list)):
                return result_text(content[field])
    return json.dumps(content)


def needs_read(items, tool_output_type):
    """Whether the latest prompt with READ_MARKER has had no tool output after it yet."""
    holding = [i for i, item in enumerate(items) if marked(item, READ_MARKER)]
    if not holding:
        return False
    return not any(f'"{tool_output_type}"' in json.dumps(item) for item in items[holding[-1]:])


# The read tools of the clients that are told apart by what they offer: (tool, its path argument).
READ_TOOLS = (("read_file", "file_path"), ("view", "path"), ("read", "filePath"))


def starts_subagent(messages, tools):
    """Whether this Anthropic turn is the one of SUBAGENT_MARKER's prompt, with the Agent tool offered
    and no tool result after that prompt yet."""
    if not any((tool.get("name") == "Agent") for tool in declared_tools(tools)):
        return False
    holding = [i for i, item in enumerate(messages) if marked(item, SUBAGENT_MARKER)]
    return bool(holding) and '"tool_result"' not in json.dumps(messages[holding[-1]:])


def codex_subagent_step(body):
    """The next call of a Codex turn whose prompt carries SUBAGENT_MARKER, as ((tool, namespace), arguments), or None
    for a text answer: spawn_agent on SUBAGENT_TASK, then wait_agent on the agent it started, then text. Codex 0.171
    offers them inside the `multi_agent_v1` namespace ([features] multi_agent, on by default). The subagent's own
    requests carry client_metadata["x-openai-subagent"] = "collab_spawn" (and the same HTTP header): they get text."""
    if (body.get("client_metadata") or {}).get("x-openai-subagent"):
        return None
    turn = after_latest(body.get("input") or [], SUBAGENT_MARKER)
    spawn, wait = tool_named(body.get("tools"), "spawn_agent"), tool_named(body.get("tools"), "wait_agent")
    if turn is None or not spawn or not wait:
        return None
    results = tool_results(turn)
    if not results:
        return spawn, {"message": SUBAGENT_TASK}
    if len(results) == 1:
        found = re.search(r'"agent_id"\s*:\s*"([^"]+)"', results[0][1])
        return (wait, {"targets": [found.group(1)], "timeout_ms": 60000}) if found else None
    return None


def subagent_call(tools):
    """The call that starts a subagent on SUBAGENT_TASK, as (name, arguments), or None when no such
    tool is offered (a subagent's own requests offer none): Gemini CLI's `invoke_agent` (its
    generalist), or the `task` tool of Copilot CLI (`agent_type`; `mode` sync, so that the parent's
    turn waits for it) or OpenCode (`subagent_type`)."""
    if any(tool.get("name") == "invoke_agent" for tool in declared_tools(tools)):
        return "invoke_agent", {"agent_name": "generalist", "prompt": SUBAGENT_TASK}
    task = next((tool for tool in declared_tools(tools)
                 if (tool.get("function") or tool).get("name") == "task"), None)
    properties = ((task or {}).get("function") or task or {}).get("parameters", {}).get("properties", {})
    if "agent_type" in properties:
        return "task", {"name": "lister", "description": "List the files", "agent_type": "explore",
                        "prompt": SUBAGENT_TASK, "mode": "sync"}
    if "subagent_type" in properties:
        return "task", {"description": "List the files", "prompt": SUBAGENT_TASK, "subagent_type": "general"}
    return None


def read_tool(tools):
    """The offered read tool as (name, path argument), or None."""
    names = {tool.get("name") or (tool.get("function") or {}).get("name") for tool in declared_tools(tools)}
    return next((tool for tool in READ_TOOLS if tool[0] in names), None)


def fill_schema(schema):
    """A value that fits a JSON schema (Gemini's responseJsonSchema): the first enum value, each
    property of an object, an empty array, 1, false or a short string."""
    if not isinstance(schema, dict):
        return "mock"
    if schema.get("enum"):
        return schema["enum"][0]
    for alternatives in ("anyOf", "oneOf"):
        if schema.get(alternatives):
            return fill_schema(schema[alternatives][0])
    kind = schema.get("type")
    kind = (kind[0] if isinstance(kind, list) else kind or "object").lower()
    if kind == "object":
        return {name: fill_schema(value) for name, value in (schema.get("properties") or {}).items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return max(1, schema.get("minimum") or 1)
    if kind == "boolean":
        return False
    return "mock"


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
                elif path.endswith("/chat/completions"):
                    self._chat(body)
                elif path.endswith(":countTokens"):
                    self._json({"totalTokens": 100})
                elif path.endswith(":generateContent") or path.endswith(":streamGenerateContent"):
                    self._gemini(body, stream=path.endswith(":streamGenerateContent"))
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
                """Server-sent events: (name, data) pairs; a name of None sends the data alone, as
                the Gemini and Chat Completions streams do, and a string data is sent as it is."""
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("connection", "close")
                self.end_headers()
                for name, data in events:
                    data = data if isinstance(data, str) else json.dumps(data)
                    self.wfile.write((f"event: {name}\n" if name else "").encode() + f"data: {data}\n\n".encode())
                    self.wfile.flush()
                self.close_connection = True

            def _turn_call(self, items, tools, tool_output_type):
                """The tool call a turn of the Gemini or Chat Completions APIs answers with, as
                (name, arguments), or None for a text answer: Starling's MCP tools in a SEARCH_MARKER
                turn, the subagent tool in a SUBAGENT_MARKER turn, the offered read tool in a
                READ_MARKER turn."""
                if not tools:
                    return None
                # The latest marked prompt decides: a session may have had a SEARCH_MARKER turn before.
                searching = after_latest(items, SEARCH_MARKER)
                starting = after_latest(items, SUBAGENT_MARKER)
                if starting is not None and (searching is None or len(starting) < len(searching)):
                    return None if tool_results(starting) else subagent_call(tools)
                if searching is not None:
                    call = mcp_step(tools, tool_results(searching))
                    return (call[0][0], call[1]) if call else None
                reader = read_tool(tools)
                if reader and needs_read(items, tool_output_type):
                    return reader[0], {reader[1]: model.read_path}
                return None

            # --- Anthropic Messages -------------------------------------------------------------
            def _anthropic(self, body):
                wants_read = body.get("tools") and needs_read(body.get("messages") or [], "tool_result")
                searching = after_latest(body.get("messages") or [], SEARCH_MARKER)
                call = None
                if searching is not None and body.get("tools"):
                    call = mcp_step(body.get("tools"), tool_results(searching))
                if not call and body.get("tools") and starts_subagent(body.get("messages") or [], body.get("tools")):
                    call = (("Agent",), {"description": "List files", "prompt": SUBAGENT_TASK,
                                         "subagent_type": "general-purpose"})
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
                if not call:
                    call = codex_subagent_step(body)
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

            # --- Gemini API ---------------------------------------------------------------------
            def _gemini(self, body, stream):
                config = body.get("generationConfig") or {}
                schema = config.get("responseJsonSchema") or config.get("responseSchema")
                if schema:
                    # The model router's classifier and the CLI's other JSON asks: fill the schema.
                    part = {"text": json.dumps(fill_schema(schema))}
                else:
                    call = self._turn_call(body.get("contents") or [], body.get("tools"), "functionResponse")
                    # A Gemini subagent ends by calling complete_task with its result, as its schema asks.
                    finish = next((tool for tool in declared_tools(body.get("tools"))
                                   if tool.get("name") == "complete_task"), None)
                    if not call and finish:
                        call = ("complete_task", fill_schema(finish.get("parametersJsonSchema") or
                                                             finish.get("parameters") or {}))
                    part = {"functionCall": {"id": f"mock_{call[0]}", "name": call[0], "args": call[1]}} if call \
                        else {"text": "Done."}
                reply = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP",
                                         "index": 0}],
                         "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}}
                if stream:
                    self._stream([(None, reply)])
                else:
                    self._json(reply)

            # --- OpenAI Chat Completions ----------------------------------------------------------
            def _chat(self, body):
                # OpenCode's title agent offers no tools: it gets text, as every turn without a call.
                call = self._turn_call(body.get("messages") or [], body.get("tools"), "tool")
                chunk = {"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 0,
                         "model": body.get("model", "gpt-mock")}
                if call:
                    tool_call = {"id": f"call_mock_{call[0].replace('-', '_')}", "type": "function",
                                 "function": {"name": call[0], "arguments": json.dumps(call[1])}}
                    message, finish = {"role": "assistant", "content": None, "tool_calls": [tool_call]}, "tool_calls"
                else:
                    message, finish = {"role": "assistant", "content": "Done."}, "stop"
                usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
                if not body.get("stream"):
                    self._json(dict(chunk, object="chat.completion", usage=usage,
                                    choices=[{"index": 0, "message": message, "finish_reason": finish}]))
                    return
                if call:
                    first = dict(message, tool_calls=[dict(tool_call, index=0,
                                                           function=dict(tool_call["function"], arguments=""))])
                    delta = {"tool_calls": [{"index": 0, "function": {"arguments": tool_call["function"]["arguments"]}}]}
                else:
                    first, delta = {"role": "assistant", "content": ""}, {"content": "Done."}
                self._stream([
                    (None, dict(chunk, choices=[{"index": 0, "delta": first, "finish_reason": None}])),
                    (None, dict(chunk, choices=[{"index": 0, "delta": delta, "finish_reason": None}])),
                    (None, dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": finish}])),
                    (None, dict(chunk, choices=[], usage=usage)),
                    (None, "[DONE]"),
                ])

        return Handler
