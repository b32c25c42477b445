"""The tests' hands on a real browser: Debian's Chromium, headless, driven through Playwright, at the niceness the
driver was started with (see chromium-at-my-priority).

One JSON request per line on standard input, one JSON answer per line on standard output:
  {"open": URL, "width": W, "height": H}   load a page
  {"reload": true}                         load the page again, answering once it has loaded
  {"viewport": [W, H]}                     resize the window
  {"eval": "JS expression"}                its value
  {"key": "Space"}                         press a key (Playwright's names)
  {"drag": [[X1, Y1], [X2, Y2]]}           press the mouse's button at one point, move to the other, let go
  {"choose": SELECTOR, "files": [PATH]}    choose files in a file input, as a person does in its dialog
  {"screenshot": PATH}                     a PNG of the viewport
  {"sent": N}                              the commands the page has sent on its WebSocket since the last such request,
                                           once N have come (after 300 ms for N = 0)
Errors come back as {"error": "..."}.
"""
import json
import os
import sys

from playwright.sync_api import sync_playwright

with sync_playwright() as playwright:
    chromium = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chromium-at-my-priority")
    browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
    page, sent = None, []
    for line in sys.stdin:
        request = json.loads(line)
        try:
            if "open" in request:
                page = browser.new_page(viewport={"width": request.get("width", 1400), "height": request.get("height", 1000)})
                page.on("websocket", lambda socket: socket.on("framesent", lambda frame: sent.append(frame)))
                page.goto(request["open"])
                answer = {"ok": True}
            elif "reload" in request:
                page.reload()
                answer = {"ok": True}
            elif "viewport" in request:
                page.set_viewport_size({"width": request["viewport"][0], "height": request["viewport"][1]})
                answer = {"ok": True}
            elif "eval" in request:
                answer = {"value": page.evaluate(request["eval"])}
            elif "drag" in request:
                (x1, y1), (x2, y2) = request["drag"]
                page.mouse.move(x1, y1)
                page.mouse.down()
                page.mouse.move(x2, y2, steps=12)
                page.mouse.up()
                answer = {"ok": True}
            elif "choose" in request:
                page.set_input_files(request["choose"], request["files"])
                answer = {"ok": True}
            elif "key" in request:
                page.keyboard.press(request["key"])
                answer = {"ok": True}
            elif "screenshot" in request:
                page.screenshot(path=request["screenshot"])
                answer = {"ok": True}
            elif "sent" in request:
                # Frames are reported as the browser sends them, after the key's events: wait for as many commands as
                # are expected (5 s at most), or, expecting none, 300 ms for any that were not.
                def commands():
                    frames = [frame if isinstance(frame, str) else frame.decode() for frame in sent]
                    return [frame for frame in frames if not frame.startswith('{"painted"')]
                wanted = request["sent"]
                if wanted == 0:
                    page.wait_for_timeout(300)
                for _ in range(250):
                    if len(commands()) >= wanted:
                        break
                    page.wait_for_timeout(20)
                answer = {"value": commands()}
                sent.clear()
            else:
                answer = {"error": "unknown request"}
        except Exception as error:  # The test reads the failure; the browser stays up for the next request.
            answer = {"error": str(error)}
        print(json.dumps(answer), flush=True)
    browser.close()
