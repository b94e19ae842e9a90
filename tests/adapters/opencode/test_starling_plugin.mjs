// SPDX-License-Identifier: Apache-2.0
// Starling's OpenCode plugin (adapters/opencode/starling.js), run by Node as OpenCode runs it, against a
// stand-in hook program that records what it was given and answers per event.
//   node --test test_starling_plugin.mjs   (STARLING_SOURCE_DIR: the repository; default: ../../..)
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const source = resolve(process.env.STARLING_SOURCE_DIR ?? join(import.meta.dirname, "../../.."),
                       "adapters/opencode/starling.js");

/** The plugin as install writes it, running `hook` (a shell script body) as Starling's hook program. */
async function pluginRunning(hook, command = undefined) {
  const folder = mkdtempSync(join(tmpdir(), "starling-opencode-"));
  const program = join(folder, "hook.sh");
  writeFileSync(program, `#!/bin/sh\nlog="${folder}/calls"\n${hook}\n`);
  chmodSync(program, 0o755);
  const text = readFileSync(source, "utf8").replace("@STARLING_HOOK_COMMAND@", JSON.stringify(command ?? [program, "opencode"]));
  const module = join(folder, "starling.mjs");
  writeFileSync(module, text);
  const { StarlingMemory } = await import(pathToFileURL(module).href);
  const client = { app: { agents: async () => ({ data: [
    { name: "build", hidden: false },
    { name: "title", hidden: true, prompt: "You are a title generator." },
  ] }) } };
  const hooks = await StarlingMemory({ client, directory: "/home/dev/app" });
  const calls = () => existsSync(join(folder, "calls"))
    ? readFileSync(join(folder, "calls"), "utf8").trim().split("\n").map((line) => JSON.parse(line)) : [];
  return { hooks, calls };
}

// Records {argv, payload} and answers each event with context naming it.
const answering = `printf '{"argv":"%s","payload":%s}\\n' "$*" "$(cat)" >> "$log"
printf '{"additionalContext":"memory for %s"}' "$2"`;

test("each OpenCode moment reaches the hook as a Claude-style event, and the context lands where the model reads it", async () => {
  const { hooks, calls } = await pluginRunning(answering);
  await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_1" } } } });

  const system = ["You are opencode."];
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1" }, { system });
  assert.deepEqual(system, ["You are opencode.", "memory for SessionStart"]);

  const parts = [{ type: "text", text: "fix the build" }, { type: "text", text: "added", synthetic: true }];
  await hooks["chat.message"]({ sessionID: "ses_1", messageID: "msg_1" }, { message: { id: "msg_1" }, parts });
  assert.equal(parts.length, 3);
  const { id, ...added } = parts[2];
  assert.match(id, /^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$/); // OpenCode refuses a part without one
  assert.deepEqual(added, { type: "text", text: "memory for UserPromptSubmit", synthetic: true,
                            sessionID: "ses_1", messageID: "msg_1" });

  const tool = { title: "notes", output: "1: # note", metadata: {} };
  await hooks["tool.execute.after"]({ tool: "read", sessionID: "ses_1", callID: "c", args: { filePath: "/n.md" } }, tool);
  assert.equal(tool.output, "1: # note\n\nmemory for PostToolUse");

  const compaction = { context: [] };
  await hooks["experimental.session.compacting"]({ sessionID: "ses_1" }, compaction);
  assert.deepEqual(compaction.context, ["memory for PreCompact"]);

  await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_1" } } });
  await hooks.event({ event: { type: "session.deleted", properties: { info: { id: "ses_1" } } } });

  const seen = calls();
  assert.deepEqual(seen.map((call) => call.argv), ["opencode SessionStart", "opencode UserPromptSubmit",
    "opencode PostToolUse", "opencode PreCompact", "opencode Stop", "opencode SessionEnd"]);
  for (const call of seen) {
    assert.equal(call.payload.session_id, "ses_1");
    assert.equal(call.payload.cwd, "/home/dev/app");
    assert.equal(call.payload.hook_event_name, call.argv.split(" ")[1]);
  }
  assert.equal(seen[1].payload.prompt, "fix the build"); // the plugin-added part is not the user's
  assert.deepEqual(seen[2].payload.tool_input, { filePath: "/n.md" });
  assert.equal(seen[2].payload.tool_name, "read");
});

test("OpenCode's own hidden agents (the title generator) get no memory", async () => {
  const { hooks, calls } = await pluginRunning(answering);
  await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_1" } } } });
  const title = ["You are a title generator. You output ONLY a thread title."];
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1" }, { system: title });
  assert.equal(title.length, 1);
  assert.equal(calls().length, 1);
});

test("a subagent's child session gets what a subagent start gives, and its task, end and deletion are not the user's",
     async () => {
  const { hooks, calls } = await pluginRunning(answering);
  await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_1" } } } });
  // As OpenCode 1.18.33 sent it for the task tool: a child session naming its parent and agent.
  const created = hooks.event({ event: { type: "session.created",
    properties: { info: { id: "ses_2", parentID: "ses_1", agent: "general" } } } });
  // The child's first request may come before the hook has answered: it waits for it.
  const child = ["You are opencode."];
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_2" }, { system: child });
  await created;
  assert.deepEqual(child, ["You are opencode.", "memory for SubagentStart"]);

  const parts = [{ type: "text", text: "List the top-level files." }];
  await hooks["chat.message"]({ sessionID: "ses_2", agent: "general" }, { message: { id: "m" }, parts });
  assert.equal(parts.length, 1);
  await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_2" } } });
  await hooks.event({ event: { type: "session.deleted", properties: { info: { id: "ses_2", parentID: "ses_1" } } } });

  const seen = calls();
  assert.deepEqual(seen.map((call) => call.argv), ["opencode SessionStart", "opencode SubagentStart"]);
  assert.equal(seen[1].payload.session_id, "ses_1");
  assert.equal(seen[1].payload.agent_id, "ses_2");
  assert.equal(seen[1].payload.agent_type, "general");
});

test("a hook that fails, answers nonsense or is missing adds nothing, and OpenCode carries on", async () => {
  for (const hook of ["exit 3", "echo 'not json'", 'printf \'{"additionalContext": 7}\'', "exec /nonexistent/program"]) {
    const { hooks } = await pluginRunning(hook);
    const parts = [{ type: "text", text: "hello" }];
    await hooks["chat.message"]({ sessionID: "s" }, { message: { id: "m" }, parts });
    assert.equal(parts.length, 1, hook);
    const tool = { output: "out" };
    await hooks["tool.execute.after"]({ tool: "read", sessionID: "s", args: {} }, tool);
    assert.equal(tool.output, "out", hook);
  }
});

test("a hook program that is gone adds nothing", async () => {
  const { hooks } = await pluginRunning("", ["/nonexistent/starling-hook", "opencode"]);
  const parts = [{ type: "text", text: "hello" }];
  await hooks["chat.message"]({ sessionID: "s" }, { message: { id: "m" }, parts });
  assert.equal(parts.length, 1);
});

test("a prompt with no words of the user's runs no hook", async () => {
  const { hooks, calls } = await pluginRunning(answering);
  await hooks["chat.message"]({ sessionID: "s" }, { parts: [{ type: "file", url: "file:///a.png" }] });
  assert.equal(calls().length, 0);
});
