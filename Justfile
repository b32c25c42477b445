# choir's tasks. `just` lists them; every task installs what it needs first.

set shell := ["bash", "-euo", "pipefail", "-c"]

# Steps of the pitch net's fine-tuning (Resources/PitchNet/finetune-swiftf0.py): the checkpoint committed.
net_steps := "450"
example := "Resources/ExamplePieces/amazing_grace.musicxml"
demo_take := "Resources/DemoTakes/amazing_grace_tenor.wav"
# choir scan: libcurl for HTTPS to the model's server, libjpeg-turbo and libpng for the pages, poppler's pdftoppm for PDFs;
# speexdsp resamples the voice to the learned pitch tracker's 16 kHz.
apt_packages := "pkg-config libcurl4-openssl-dev libturbojpeg0-dev libpng-dev poppler-utils libfluidsynth-dev libasound2-dev libfftw3-dev libsndfile1-dev libspeexdsp-dev zlib1g-dev libsqlite3-dev fluid-soundfont-gm pulseaudio pulseaudio-utils libasound2-plugins"
# The tests' and benchmarks' singers plant mistakes in real recordings with Rubber Band, and set speexdsp's echo
# canceller beside choir's own.
support_packages := "librubberband-dev"
# The studio's page is measured in Chromium through Playwright, as the tests drive it.
bench_packages := "libxml2-utils aubio-tools fluidsynth tmux chromium " + support_packages
# The HTML report's test opens it in a headless browser; the live view's tests drive it in tmux; the score view's
# drive Chromium through Playwright.
test_packages := "chromium tmux " + support_packages

# List the tasks.
default:
    @just --list

# Install the system libraries, the GM SoundFont, PulseAudio for the real-time tests, and Verovio (the score view's
# engraver, from PyPI) (quick when they are there).
setup: (_apt apt_packages) (_pip "verovio==6.4.1")

# Install whichever of the Python PACKAGES (name==version) pip has not installed yet.
_pip +PACKAGES:
    #!/usr/bin/env bash
    set -euo pipefail
    missing=$(for p in {{PACKAGES}}; do python3 -m pip show -q "${p%%==*}" >/dev/null 2>&1 || echo "$p"; done)
    if [ -n "$missing" ]; then
        echo "Installing:" $missing
        # Debian's own Python wants --break-system-packages for a user's packages; others take them as they are.
        python3 -m pip install -q $missing 2>/dev/null || python3 -m pip install -q --user --break-system-packages $missing
    fi

# Install whichever of PACKAGES apt has not installed yet.
_apt +PACKAGES:
    #!/usr/bin/env bash
    set -euo pipefail
    missing=$(for p in {{PACKAGES}}; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || echo "$p"; done)
    if [ -n "$missing" ]; then
        sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
        echo "Installing:" $missing
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
    fi

# Build choir (release, with the Swift runtime linked in for a quicker start).
build: setup
    swift build -c release --product choir --static-swift-stdlib

# Install choir under PREFIX: the program with its resources, a man page per command (`man choir.practice`), and
# completion for bash, zsh and fish.
install PREFIX=(env_var("HOME") + "/.local"): build
    just _install-program "{{PREFIX}}" .build/release
    just _install-docs "{{PREFIX}}" .build/release/choir

# The program built in BUILD under PREFIX/bin, with the score view's page and engraving script beside it, in the
# folder SwiftPM copies them to (choir looks for them beside itself, wherever it is installed).
_install-program PREFIX BUILD:
    install -Dm755 "{{BUILD}}/choir" "{{PREFIX}}/bin/choir"
    rm -rf "{{PREFIX}}/bin/choir_ChoirView.resources"
    cp -R "{{BUILD}}/choir_ChoirView.resources" "{{PREFIX}}/bin/"
    install -Dm644 Resources/PitchNet/swiftf0-accompanied.weights Resources/PitchNet/LICENSE.swift-f0 -t "{{PREFIX}}/share/choir"

# The man pages (SwiftPM's generate-manual plugin, from choir's own help) and the completion scripts CHOIR writes,
# under PREFIX.
_install-docs PREFIX CHOIR:
    #!/usr/bin/env bash
    set -euo pipefail
    swift package --allow-writing-to-package-directory generate-manual --multi-page --configuration debug >/dev/null 2>&1
    install -Dm644 -t "{{PREFIX}}/share/man/man1" .build/plugins/GenerateManual/outputs/choir/*.1
    install -d "{{PREFIX}}/share/bash-completion/completions" "{{PREFIX}}/share/zsh/site-functions" "{{PREFIX}}/share/fish/vendor_completions.d"
    "{{CHOIR}}" --generate-completion-script bash > "{{PREFIX}}/share/bash-completion/completions/choir"
    "{{CHOIR}}" --generate-completion-script zsh > "{{PREFIX}}/share/zsh/site-functions/_choir"
    "{{CHOIR}}" --generate-completion-script fish > "{{PREFIX}}/share/fish/vendor_completions.d/choir.fish"
    echo "Installed the man pages and completions under {{PREFIX}}"

# Practise the tenor line of the example on the default audio device; without one, judge the bundled demo
# take instead, write the mix to demo-mix.wav and print the report. With a desktop browser the engraved score follows
# the session there (--view --open); without one the demo says nothing of it. It runs the debug build, which the
# tests share, so that the quick start's two commands build choir once (CI must end within 20 minutes); a live
# session needs no more speed than that (the real-time tests run it), and `just install` builds the optimised program.
demo: setup
    #!/usr/bin/env bash
    set -uo pipefail
    swift build --product choir || exit
    # With a desktop browser, the engraved score follows the session in it.
    view=()
    if [ -n "${BROWSER:-}" ] || { command -v xdg-open >/dev/null && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; }; then view=(--view --open); fi
    .build/debug/choir practice {{example}} --part tenor "${view[@]}"
    status=$?
    if [ "$status" -eq 69 ]; then
        exec .build/debug/choir practice {{example}} --part tenor --input {{demo_take}} --output demo-mix.wav "${view[@]}"
    fi
    exit "$status"

# Rebuild the learned pitch tracker's weights from the pinned swift-f0 wheel on PyPI: the published network
# (Resources/PitchNet/swiftf0.weights), then the one choir runs, fine-tuned from it on singing through accompaniments
# (swiftf0-accompanied.weights; about 25 minutes on one core, with torch). Both files are committed, so this is
# needed only to check them or to move to another release.
net-weights: (_pip "onnx==1.23.2" "torch==2.15.0" "soundfile" "soxr" "mir_eval")
    python3 Resources/PitchNet/convert-swiftf0.py
    swift build -c release --product choir
    python3 Resources/PitchNet/finetune-swiftf0.py --steps {{net_steps}}

# Regenerate the bundled demo take (the synthetic singer, with a few planted mistakes).
demo-take:
    swift run make-demo-take {{example}} {{demo_take}}

# Run every test: the real-time suite in front, one live session at a time, while everything else runs at low
# priority beside it (more beside it, and the singer of the tests that compare live with file verdicts loses its place
# by 110 ms; in the idle scheduling class, its browser tests starve); then check the install task and fuzz the score
# reader and a take's header for half a minute from a fixed seed (`just fuzz` runs longer). CI must end within 20
# minutes, so ThreadSanitizer has a task of its own (`just test-threads`). The test bundle runs directly, since SwiftPM
# allows one test run per build folder at a time.
test: setup (_apt test_packages) (_pip "playwright==1.65.2")
    #!/usr/bin/env bash
    set -euo pipefail
    just lint
    swift build --build-tests
    logs=$(mktemp -d)
    plain=(.build/debug/choirPackageTests.xctest --testing-library swift-testing)
    nice -n 19 "${plain[@]}" --skip RealTimeTests > "$logs/rest" 2>&1 & rest=$!
    status=0
    # The score view's delay is held against the terminal's with nothing else running: beside the other suites,
    # headless Chromium's frames fell behind on two cores (ci44: median 93 ms against the terminal's 40).
    page=theScoreViewFollowsALiveSession
    "${plain[@]}" --filter RealTimeTests --skip "$page" 2>&1 | tee "$logs/live" || status=$?
    wait "$rest" || status=$?
    "${plain[@]}" --filter "RealTimeTests/$page" 2>&1 | tee -a "$logs/live" || status=$?
    cat "$logs/rest"
    just _report-failures "$logs" "$status"
    rm -rf "$logs"
    [ "$status" -eq 0 ]
    just _check-install
    just fuzz 30 1

# The tests whose code runs on more than one thread, under ThreadSanitizer: streams, the tracker's threads, the live
# echo solver, the history's writer, the steered judge; then live sessions run by choir built with the same
# sanitizer, one at a time: one driven through the library, one steered by keys, and each signal ending one.
test-threads: setup (_apt test_packages)
    #!/usr/bin/env bash
    set -euo pipefail
    swift build --build-tests --sanitize=thread --scratch-path .build-tsan
    export TSAN_OPTIONS="halt_on_error=1"
    # Under ThreadSanitizer, Swift's crash handler cannot clone its helper (a CHECK in the sanitizer's fork
    # handling fills the screen instead): without it, a crash shows the runtime's own message.
    export SWIFT_BACKTRACE="enable=no"
    logs=$(mktemp -d)
    tsan=(.build-tsan/debug/choirPackageTests.xctest --testing-library swift-testing)
    status=0
    "${tsan[@]}" --filter "ChoirAudioTests|PitchTrackerTests|EchoCancellerTests|LiveEchoTests|PracticeHistoryTests|SteeredJudgeTests" 2>&1 | tee "$logs/threaded" || status=$?
    "${tsan[@]}" --filter "aFrontEndDrives|terminationSignals|liveSessionEndsOnSignal|liveViewFollowsTheKeys" 2>&1 | tee "$logs/live" || status=$?
    just _report-failures "$logs" "$status"
    rm -rf "$logs"
    [ "$status" -eq 0 ]

# The failures of a test run whose logs are in LOGS, again, last, where a truncated log still shows them.
_report-failures LOGS STATUS:
    #!/usr/bin/env bash
    if [ "{{STATUS}}" -ne 0 ]; then
        echo "Failed:"
        grep -hE -A4 "✘|WARNING: ThreadSanitizer|Fatal error" "{{LOGS}}"/* || echo "(no test failed: a run crashed; see above)"
    fi

# The install task's program, man pages and completions, installed into a scratch folder and read back; the
# installed program, run through a link from elsewhere, engraves and serves the score view from its own resources,
# and without them says in one line what is missing.
_check-install:
    #!/usr/bin/env bash
    set -euo pipefail
    prefix=$(mktemp -d)
    just _install-program "$prefix" .build/debug
    mkdir "$prefix/elsewhere" && ln -s "$prefix/bin/choir" "$prefix/elsewhere/choir"
    view=("$prefix/elsewhere/choir" practice {{example}} --part tenor --input {{demo_take}} --output none --view)
    export XDG_CACHE_HOME="$prefix/home" XDG_DATA_HOME="$prefix/home" XDG_CONFIG_HOME="$prefix/home"
    "${view[@]}" < /dev/null | grep -q '^Score view: http://127.0.0.1:'
    rm -rf "$prefix/bin/choir_ChoirView.resources" "$prefix/home"
    status=0; said=$("${view[@]}" 2>&1 >/dev/null < /dev/null) || status=$?
    [ "$status" -eq 66 ] && [ "$said" = "choir: $prefix/bin/choir_ChoirView.resources/View/engrave.py: missing or unreadable: expected the score view's engrave.py, installed beside choir" ] || { echo "without its resources: exit $status, $said"; exit 1; }
    just _install-docs "$prefix" .build/debug/choir
    man="$prefix/share/man/man1"
    for command in info notes pitch render play view practice calibrate history report library mark coach plan scan; do test -s "$man/choir.$command.1"; done
    grep -q -- 'transpose' "$man/choir.practice.1" && grep -q -- 'divisi' "$man/choir.practice.1"
    grep -q -- 'dry-run' "$man/choir.scan.1" && grep -q -- 'OPENROUTER_API_KEY' "$man/choir.scan.1"
    bash -n "$prefix/share/bash-completion/completions/choir"
    bash -c "source '$prefix/share/bash-completion/completions/choir' && complete -p choir" | grep -q '_choir'
    grep -q -- '--transpose' "$prefix/share/zsh/site-functions/_choir"
    grep -q -- 'transpose' "$prefix/share/fish/vendor_completions.d/choir.fish"
    rm -rf "$prefix"
    echo "install: the program and the score view's resources, man pages for every command, completion for bash, zsh and fish"

# Speed and memory benchmarks (ordo-one/benchmark), then choir beside music21, xmllint, aubio and fluidsynth,
# then choir on real singing beside five peer trackers (alone, and under accompaniments on the checking set beside
# pYIN, Praat and the learned trackers SwiftF0, PESTO and CREPE tiny from PyPI, a few GB with torch), the judge on
# planted mistakes (both sets, dry and through loudspeakers; then the checking set through loudspeakers with the echo
# held against instead of taken out, and with speexdsp's canceller; then under a piano in the room with YIN alone),
# the corpus's chorales rendered on six voices and judged as takes (the sixth on TimGM6mb's SoundFont), playback
# beside fluidsynth, the score view's server under a hostile header, the history's check at two sizes, the scan's
# pages as sent, then a live practice session measured (CPU, microphone-to-screen delay, 10 minutes under load), and
# its CPU again with the learned tracker judging.
# The studio's page alone (first paint of a four-page SATB score, the delay from sound in to the page, the studio's
# memory), after `just build`: `cd Benchmarks && CHOIR_BENCHMARKS=1 swift package --disable-sandbox benchmark --target StudioPage`.
bench: build (_apt bench_packages "timgm6mb-soundfont") (_pip "playwright==1.65.2" "swift-f0==0.3.0" "pesto-pitch==2.0.1" "torchcrepe==0.0.24")
    cd Benchmarks && CHOIR_BENCHMARKS=1 swift package --disable-sandbox benchmark --no-progress
    python3 -m pip install -q music21 mir_eval librosa praat-parselmouth soundfile soxr
    Benchmarks/compare-readers.py
    Benchmarks/compare-corpus.py
    Benchmarks/compare-pitch.py
    Benchmarks/compare-voices.py
    Benchmarks/compare-accompanied.py --set=checking --peers=swiftf0,pesto,crepe-tiny
    swift run -c release judge-figures
    swift run -c release judge-figures checking --loudspeakers --gate
    swift run -c release judge-figures checking --loudspeakers --speex
    swift run -c release judge-figures checking --piano --db=-6 --tracker=yin
    Benchmarks/judge-renders.py
    Benchmarks/compare-playback.py
    Benchmarks/measure-hostile-header.py
    Benchmarks/measure-history-check.py
    Benchmarks/measure-scan-pages.py
    Benchmarks/measure-live.py
    Benchmarks/measure-live.py 0.5 --tracker net

# Fuzz the readers of untrusted files with libFuzzer for SECONDS, side by side: the score reader, and a take's header
# (CHOIR_FUZZ=take: read from memory through libsndfile, as every take is read; Debian's libsndfile carries no
# coverage counters, so inside it the fuzzer mutates blind and gains only from the seeds and wav.dict). Findings land in .build-fuzz/findings (score-* and take-*), each target's log in
# .build-fuzz/*.log, and any finding fails the task. Leak detection is off,
# libFuzzer's per input and LeakSanitizer's at exit: it reports the Swift runtime's one-time caches (metadata, first
# use of a code path) as a leak of the input that first touched them, and once reported 42 array buffers of
# `Line.VoiceKey` (plain values, which cannot form a cycle) after 205,912 runs. valgrind finds nothing lost over
# the corpus and every past crash (`valgrind --leak-check=full .build/debug/choir-fuzz FILES...`). SEED 0 draws one
# at random; the tests give a fixed one, so that the same fresh clone fuzzes the same way.
fuzz SECONDS="1800" SEED="0": setup _fuzz-build
    #!/usr/bin/env bash
    set -euo pipefail
    mkdir -p .build-fuzz/corpus .build-fuzz/takes .build-fuzz/findings
    cp -n Tests/Fixtures/corpus/*.*ml Tests/Fixtures/corpus/*.xml Tests/Fixtures/lilypond/*.*ml {{example}} Tests/Fixtures/fuzz/crashes/* .build-fuzz/corpus/
    cp -n Tests/Fixtures/fuzz/takes/* .build-fuzz/takes/
    export ASAN_OPTIONS=detect_leaks=0
    common=(-detect_leaks=0 -timeout=10 -rss_limit_mb=4096 -max_total_time={{SECONDS}} -seed={{SEED}})
    .build-fuzz/release/choir-fuzz .build-fuzz/corpus -dict=Tests/Fixtures/fuzz/musicxml.dict -max_len=65536 \
        -artifact_prefix=.build-fuzz/findings/score- "${common[@]}" > .build-fuzz/score.log 2>&1 & score=$!
    CHOIR_FUZZ=take .build-fuzz/release/choir-fuzz .build-fuzz/takes -dict=Tests/Fixtures/fuzz/wav.dict -max_len=4096 \
        -artifact_prefix=.build-fuzz/findings/take- "${common[@]}" > .build-fuzz/take.log 2>&1 & take=$!
    status=0
    wait "$score" || status=$?
    wait "$take" || status=$?
    for target in score take; do
        echo "$target: $(grep -E '^(Done|#[0-9]+ +DONE)' .build-fuzz/$target.log | tail -1) (corpus $(ls .build-fuzz/$([ $target = score ] && echo corpus || echo takes) | wc -l) files)"
        grep -E -A12 "^==[0-9]+==ERROR|deadly signal|Test unit written" .build-fuzz/$target.log || true
    done
    exit "$status"

# The fuzzer: choir's score reader and take header reader, built with libFuzzer and AddressSanitizer.
_fuzz-build:
    swift build --scratch-path .build-fuzz -c release -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address \
        -Xswiftc -parse-as-library -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld --product choir-fuzz

# Format every Swift file in place with the toolchain's swift-format and the project's `.swift-format`.
fmt:
    swift format --in-place --recursive --parallel Sources Tests Benchmarks

# Check that every Swift file is formatted as `just fmt` leaves it (the tests run this first).
lint:
    swift format lint --strict --recursive --parallel Sources Tests Benchmarks
    python3 -c 'import ast, sys; [ast.parse(open(f).read(), f) for f in sys.argv[1:]]' Resources/View/*.py

# Rewrite the expected CLI outputs in Tests/Fixtures/cli from the current build (review with git diff). The tests
# still compare with the files as they were, so those whose output changed fail here; run the tests again to compare
# with the new files.
update-golden: setup
    CHOIR_UPDATE_GOLDEN=1 swift test --filter ChoirCLITests || true
    git status --short Tests/Fixtures/cli
