#!/usr/bin/env python3
"""An OpenAI-compatible chat-completions server for choir's tests, on 127.0.0.1 at a port the system picks.

    chat-server.py SCRIPT LOG

SCRIPT is a JSON list of replies, one per request, in order. Each reply may give:
  "status"  the HTTP status (200)
  "headers" more response headers ({"Retry-After": "1"})
  "sleep"   seconds to wait before answering (for a client's timeout)
  "drop"    true: close the connection without answering (a connection that breaks)
  "body"    the JSON body as it is (an error, say)
  "file"    a file whose text is the model's reply, with "before" and "after" around it and each ["old", "new"] of
            "replace" applied once; or "text", the reply itself; either becomes a chat completion with "usage"
            and "finish" ("stop")
Every request is appended to LOG as one JSON line: {"path", "headers", "body"}. The port is printed on standard
output; the server stops when standard input closes.
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

script = json.load(open(sys.argv[1], encoding="utf-8"))
log_path = sys.argv[2]
lock = threading.Lock()
replies = iter(script)
served = 0


def reply_text(step):
    if "text" in step:
        return step["text"]
    text = open(step["file"], encoding="utf-8").read()
    for old, new in step.get("replace", []):
        if old not in text:
            raise ValueError(f"the reply has no {old!r} to replace")
        text = text.replace(old, new, 1)
    return step.get("before", "") + text + step.get("after", "")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        global served
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        with lock:
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps({"path": self.path, "headers": dict(self.headers), "body": body}) + "\n")
            step = next(replies, None)
            served += 1
            number = served
        if not self.path.endswith("/chat/completions"):
            return self.answer(404, {"error": {"message": f"no route {self.path}", "code": 404}})
        if step is None:
            return self.answer(500, {"error": {"message": "the test's script has no more replies", "code": 500}})
        time.sleep(step.get("sleep", 0))
        if step.get("drop"):
            self.close_connection = True
            return
        if "text" in step or "file" in step:
            answer = {
                "id": f"gen-{number}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model") if isinstance(body, dict) else None,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": reply_text(step)},
                        "finish_reason": step.get("finish", "stop"),
                    }
                ],
                "usage": step.get("usage", {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}),
            }
        else:
            answer = step.get("body", {})
        self.answer(step.get("status", 200), answer, step.get("headers", {}))

    def answer(self, status, body, headers={}):
        data = json.dumps(body).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
