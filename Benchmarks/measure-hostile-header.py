#!/usr/bin/env python3
"""The score view's server under the issue's attack, for each choir binary named (default: the release build).

`choir practice EXAMPLE --part Tenor --input DEMO_TAKE --output none --view` is started and left showing its report;
one client sends `GET /TOKEN/` with a 1,000,000-byte header line (no token needed to send headers); 50 ms later a
second client asks for the page. Printed: the page's status and time, choir's CPU time in the 0.55 s after the attack
and in the 2 s after that (a server left parsing shows there), and how long choir takes to exit on SIGTERM.
Usage: Benchmarks/measure-hostile-header.py [CHOIR...]   (several builds, to set them side by side).
"""
import os, signal, socket, subprocess, sys, tempfile, threading, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(binary):
    data = tempfile.mkdtemp(prefix="choir-hostile-")
    environment = dict(os.environ, XDG_DATA_HOME=data, NO_COLOR="1")
    choir = subprocess.Popen(
        [binary, "practice", "Resources/ExamplePieces/amazing_grace.musicxml", "--part", "Tenor", "--input",
         "Resources/DemoTakes/amazing_grace_tenor.wav", "--output", "none", "--view", "--no-history"],
        cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment)
    url = choir.stdout.readline().decode().split(": ", 1)[1].strip()
    while b"press Enter" not in choir.stdout.readline():
        pass
    host = url.split("/")[2]
    port, path = int(host.split(":")[1]), "/" + url.split("/", 3)[3]

    def cpu():
        fields = open(f"/proc/{choir.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def page():
        started = time.time()
        client = socket.create_connection(("127.0.0.1", port), timeout=30)
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
        return answer.split(b" ")[1].decode() if answer else "closed", time.time() - started

    before = cpu()
    attacker = socket.create_connection(("127.0.0.1", port))

    def attack():
        try:
            attacker.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nX-Big: ".encode() + b"b" * 1_000_000 + b"\r\n\r\n")
        except OSError:
            pass

    threading.Thread(target=attack, daemon=True).start()
    time.sleep(0.05)
    status, took = page()
    time.sleep(0.5)
    during = cpu()
    time.sleep(2)
    after = cpu()
    signalled = time.time()
    choir.send_signal(signal.SIGTERM)
    try:
        choir.wait(timeout=10)
        ended = f"{time.time() - signalled:.3f} s"
    except subprocess.TimeoutExpired:
        choir.kill()
        ended = "not within 10 s"
    print(f"{binary}: page {status} in {took:.3f} s under attack; CPU {during - before:.2f} s in the first 0.55 s, "
          f"{after - during:.2f} s over the next 2 s; SIGTERM ended it in {ended}")


for binary in sys.argv[1:] or [os.path.join(root, ".build/release/choir")]:
    measure(binary)
