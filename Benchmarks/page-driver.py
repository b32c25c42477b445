#!/usr/bin/env python3
"""The StudioPage benchmark's hands on a real browser: Debian's Chromium, headless, driven through Playwright (as the
tests' Tests/Fixtures/browser-driver.py is), one JSON request per line on standard input, one JSON answer per line
on standard output:
  {"open": URL, "width": W, "height": H,   load the page in a new tab (the last one closed); with "score", the
   "score": true}                          answer is once it has painted the score: the ms from the moment the page
                                           was asked for (navigation start) to the end of the frame that first
                                           showed a page of the score on the stage
  {"eval": "JS expression"}                its value
Errors come back as {"error": "..."}.
"""
import json
import sys

from playwright.sync_api import sync_playwright

# Run in the page before its own script: the first time a page of the score is put on the stage (the score view's
# frame moves it there from the shelf, inside an animation frame), the end of that frame's rendering is when the
# task after it runs.
FIRST_PAINT = """
new MutationObserver((changes, observer) => {
  if (!document.querySelector("#stage .slot .page svg")) return;
  observer.disconnect();
  setTimeout(() => { window.choirFirstPaint = performance.now(); }, 0);
}).observe(document, { childList: true, subtree: true });
"""

with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    page = None
    for line in sys.stdin:
        request = json.loads(line)
        try:
            if "open" in request:
                if page:
                    page.close()
                page = browser.new_page(viewport={"width": request.get("width", 1400), "height": request.get("height", 1000)})
                page.add_init_script(FIRST_PAINT)
                page.goto(request["open"])
                if request.get("score"):
                    # Polled from here: the page's Content-Security-Policy forbids wait_for_function's eval.
                    for _ in range(1500):
                        painted = page.evaluate("window.choirFirstPaint")
                        if painted is not None:
                            break
                        page.wait_for_timeout(20)
                    answer = {"value": painted} if painted is not None else {"error": "the score was not painted in 30 s"}
                else:
                    answer = {"ok": True}
            elif "eval" in request:
                answer = {"value": page.evaluate(request["eval"])}
            else:
                answer = {"error": "unknown request"}
        except Exception as error:  # The benchmark reads the failure and stops.
            answer = {"error": str(error)}
        print(json.dumps(answer), flush=True)
    browser.close()
