// Starling memory for OpenCode: written by `starling install opencode`, removed by `starling uninstall opencode`.
//
// OpenCode runs no command hooks, only plugins like this one. It passes OpenCode's moments on to
// Starling's hook program as Claude-style events (JSON on stdin, the event as the last argument) and
// puts the context Starling answers where the model reads it. Whatever goes wrong, OpenCode carries
// on: a hook that fails, hangs or answers nonsense adds nothing. OpenCode calls every function a
// plugin file exports as a plugin, so this one exports only StarlingMemory.
import { spawn } from "node:child_process";

const HOOK_COMMAND = @STARLING_HOOK_COMMAND@;
const HOOK_TIMEOUT_MS = 10000;

/** Runs the hook for `event`; resolves to its reply's additionalContext, or "" when there is none. */
function runHook(event, payload) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(HOOK_COMMAND[0], [...HOOK_COMMAND.slice(1), event], { stdio: ["pipe", "pipe", "inherit"] });
    } catch {
      resolve("");
      return;
    }
    let output = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), HOOK_TIMEOUT_MS);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => (output += chunk));
    child.on("error", () => {
      clearTimeout(timer);
      resolve("");
    });
    child.on("close", () => {
      clearTimeout(timer);
      try {
        const reply = output.trim() === "" ? {} : JSON.parse(output);
        resolve(typeof reply.additionalContext === "string" ? reply.additionalContext : "");
      } catch {
        resolve("");
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify({ hook_event_name: event, ...payload }));
  });
}

/** A new part's id as OpenCode makes them ("prt_", 12 hex digits of time, 14 random characters),
 *  which it requires of every part and sorts parts by. */
function partId() {
  const time = (BigInt(Date.now()) * 4096n).toString(16).padStart(12, "0").slice(-12);
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let random = "";
  for (let i = 0; i < 14; i++) random += alphabet[Math.floor(Math.random() * alphabet.length)];
  return `prt_${time}${random}`;
}

/** The user's words in a message's parts: its text parts, less those a plugin added. */
function promptOf(parts) {
  return (parts ?? [])
    .filter((part) => part.type === "text" && !part.synthetic && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

export const StarlingMemory = async ({ client, directory }) => {
  // session → what Starling gives at its start, for the system prompt: a promise, so that a request
  // made before the hook answered still waits for it.
  const sessionContext = new Map();
  // A subagent (the task tool) runs in a child session, whose prompt is the task the parent's model
  // wrote: not the user's words, so it is neither captured nor judged, and its end is not a turn's.
  const subagentSessions = new Set();
  let hiddenPrompts; // the prompts of OpenCode's own agents (title, summary, compaction)

  // Those agents' requests begin with their own prompt; memory is for the agent the user talks to.
  async function isHiddenAgentRequest(system) {
    if (hiddenPrompts === undefined) {
      try {
        const agents = (await client.app.agents()).data ?? [];
        hiddenPrompts = agents.filter((agent) => agent.hidden && agent.prompt).map((agent) => agent.prompt);
      } catch {
        hiddenPrompts = [];
      }
    }
    return hiddenPrompts.some((prompt) => (system[0] ?? "").startsWith(prompt));
  }

  const base = (sessionID) => ({ session_id: sessionID, cwd: directory });

  return {
    event: async ({ event }) => {
      const properties = event.properties ?? {};
      const info = properties.info;
      if (event.type === "session.created" && info?.parentID) {
        subagentSessions.add(info.id);
        const context = runHook("SubagentStart", { ...base(info.parentID), agent_id: info.id, agent_type: info.agent ?? "" });
        sessionContext.set(info.id, context);
        await context;
      } else if (event.type === "session.created" && info) {
        const context = runHook("SessionStart", { ...base(info.id), source: "startup" });
        sessionContext.set(info.id, context);
        await context;
      } else if (event.type === "session.idle" && !subagentSessions.has(properties.sessionID)) {
        await runHook("Stop", { ...base(properties.sessionID), stop_hook_active: false });
      } else if (event.type === "session.deleted" && info) {
        sessionContext.delete(info.id);
        if (!subagentSessions.delete(info.id)) await runHook("SessionEnd", { ...base(info.id), reason: "deleted" });
      }
    },

    "experimental.chat.system.transform": async (input, output) => {
      const context = await sessionContext.get(input.sessionID);
      if (context && !(await isHiddenAgentRequest(output.system))) output.system.push(context);
    },

    "chat.message": async (input, output) => {
      const prompt = promptOf(output.parts);
      if (!prompt || subagentSessions.has(input.sessionID)) return;
      const context = await runHook("UserPromptSubmit", { ...base(input.sessionID), prompt });
      if (context) {
        output.parts.push({ id: partId(), type: "text", text: context, synthetic: true, sessionID: input.sessionID,
                            messageID: output.message?.id ?? input.messageID });
      }
    },

    "tool.execute.after": async (input, output) => {
      const context = await runHook("PostToolUse", {
        ...base(input.sessionID),
        tool_name: input.tool,
        tool_input: input.args ?? {},
      });
      if (context && typeof output.output === "string") output.output += "\n\n" + context;
    },

    "experimental.session.compacting": async (input, output) => {
      const context = await runHook("PreCompact", { ...base(input.sessionID), trigger: "auto" });
      if (context) output.context.push(context);
    },
  };
};
