{
  "session_id": "a1b2c3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  "transcript_path": "/home/dev/.codeflicker/projects/home-dev-app/a1b2c3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d.jsonl",
  "cwd": "/home/dev/app",
  "hook_event_name": "PostToolUse",
  "tool_name": "bash",
  "tool_use_id": "call_bash_02",
  "tool_input": {
    "command": "ctest -L fast",
    "timeout": 120000
  }
}
