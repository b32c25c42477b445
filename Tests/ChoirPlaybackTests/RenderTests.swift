import ChoirPitch
import ChoirScore
import Foundation
import Testing

@testable import ChoirPlayback

/// Rendered audio, analysed: timing, the mix, tempo, loops, count-in and pitch.
struct RenderTests {
    static let rate = 48000
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let example = try! ScoreReader.read(
        contentsOf: root.appendingPathComponent("Resources/ExamplePieces/amazing_grace.musicxml").path)

    static func render(
        _ score: Score, options: PlaybackOptions = PlaybackOptions(), mixer: Mixer? = nil,
        programs: [Int]? = nil
    ) throws -> (left: [Float], right: [Float], schedule: Schedule) {
        let lines = score.lines
        let schedule = try Schedule(score: score, lines: lines, options: options)
        let renderer = try SynthRenderer(
            soundFont: try SoundFont.locate(explicit: nil, environment: ProcessInfo.processInfo.environment),
            sampleRate: rate, schedule: schedule, programs: programs ?? Instruments.programs(for: lines, in: score),
            mixer: mixer ?? Mixer(lineCount: lines.count))
        let (left, right) = renderer.renderAll()
        return (left, right, schedule)
    }

    static func mixer(_ lines: Int, _ request: (inout Mixer.Request) -> Void) throws -> Mixer {
        var r = Mixer.Request()
        request(&r)
        return try Mixer(lineCount: lines, request: r)
    }

    /// A one-line score: C4, rest, E4, rest, G4, rest at ♩ = 120 (a quarter every half second).
    static let staccato = try! ScoreReader.read(
        data: Array(
            """
            <score-partwise version="4.0">
              <part-list><score-part id="P1"><part-name>Piano</part-name>
                <midi-instrument id="I"><midi-program>1</midi-program></midi-instrument></score-part></part-list>
              <part id="P1"><measure number="1">
                <attributes><divisions>1</divisions><time><beats>6</beats><beat-type>4</beat-type></time></attributes>
                <direction><sound tempo="120"/></direction>
                <note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration></note><note><rest/><duration>1</duration></note>
                <note><pitch><step>E</step><octave>4</octave></pitch><duration>1</duration></note><note><rest/><duration>1</duration></note>
                <note><pitch><step>G</step><octave>4</octave></pitch><duration>1</duration></note><note><rest/><duration>1</duration></note>
              </measure></part>
            </score-partwise>
            """.utf8), file: "staccato.musicxml")

    /// Samples where the signal first rises above a threshold after silence.
    static func onsets(_ signal: [Float], threshold: Float = 0.005) -> [Int] {
        var result: [Int] = []
        var quiet = 0
        for (i, x) in signal.enumerated() {
            if abs(x) > threshold {
                if quiet > rate / 20 { result.append(i) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        if let first = signal.firstIndex(where: { abs($0) > threshold }), result.first != first { result.insert(first, at: 0) }
        return result
    }

    @Test func onsetsLandWhereTheScheduleSays() throws {
        let (left, _, schedule) = try Self.render(Self.staccato)
        #expect(schedule.notes.map(\.start) == [0, 1, 2])
        let found = Self.onsets(left)
        #expect(found.count == 3)
        for (onset, expected) in zip(found, [0, 48000, 96000]) {
            // FluidSynth starts voices on its 64-sample blocks; the piano's attack crosses the threshold at once.
            #expect(onset >= expected && onset < expected + 64 + 48, "onset at \(onset), scheduled at \(expected)")
        }
    }

    @Test func tempoAndBPMScaleTime() throws {
        var options = PlaybackOptions()
        options.tempoPercent = 50
        let slow = try Schedule(score: Self.staccato, lines: Self.staccato.lines, options: options)
        #expect(slow.notes.map(\.start) == [0, 2, 4])
        #expect(slow.length == 6)
        options = PlaybackOptions()
        options.quarterNotesPerMinute = 60
        let sixty = try Schedule(score: Self.staccato, lines: Self.staccato.lines, options: options)
        #expect(sixty.notes.map(\.start) == [0, 2, 4])
        #expect(sixty.notes.map(\.end) == [1, 3, 5])
        let (left, _, _) = try Self.render(Self.staccato, options: options)
        let found = Self.onsets(left)
        #expect(found.count == 3 && abs(found[2] - 4 * 48000) < 64 + 48, "\(found)")
    }

    /// Twenty lines, more than one synth's 16 MIDI channels: line i plays a sixteenth note on beat i (♩ = 60),
    /// and each one sounds on its beat.
    @Test func moreLinesThanMIDIChannelsAllPlay() throws {
        let count = 20
        let partList = (0..<count).map { "<score-part id=\"P\($0)\"><part-name>Line \($0)</part-name></score-part>" }
        let parts = (0..<count).map { i in
            let before = i == 0 ? "" : "<note><rest/><duration>\(4 * i)</duration></note>"
            let after = "<note><rest/><duration>\(3 + 4 * (count - 1 - i))</duration></note>"
            return """
                <part id="P\(i)"><measure number="1"><attributes><divisions>4</divisions>
                <time><beats>\(count)</beats><beat-type>4</beat-type></time></attributes>
                <direction><sound tempo="60"/></direction>\(before)
                <note><pitch><step>A</step><octave>4</octave></pitch><duration>1</duration></note>\(after)</measure></part>
                """
        }
        let xml = "<score-partwise version=\"4.0\"><part-list>\(partList.joined())</part-list>\(parts.joined())</score-partwise>"
        let score = try ScoreReader.read(data: Array(xml.utf8), file: "twenty.musicxml")
        #expect(score.lines.count == count)
        let (left, right, _) = try Self.render(score, programs: Array(repeating: 0, count: count))
        let mono = zip(left, right).map { $0 + $1 }
        let found = Self.onsets(mono)
        #expect(found.count == count, "\(found.count) onsets: \(found)")
        for (i, onset) in found.enumerated() {
            let expected = i * Self.rate
            #expect(onset >= expected && onset < expected + 64 + 48, "line \(i) starts at \(onset), scheduled at \(expected)")
        }
    }

    /// The mix is the sum of the lines at their volumes: the full mix minus the mix with the tenor muted is
    /// the tenor alone, and halving a volume halves the line.
    @Test func mutedLineIsAbsentAndVolumesAreExact() throws {
        let score = Self.example
        var options = PlaybackOptions()
        options.toMeasure = "4"
        let full = try Self.render(score, options: options)
        let muted = try Self.render(score, options: options, mixer: Self.mixer(4) { $0.muted = [2] })
        let solo = try Self.render(score, options: options, mixer: Self.mixer(4) { $0.soloed = [2] })
        var worst: Float = 0
        for i in full.left.indices {
            worst = max(worst, abs(full.left[i] - muted.left[i] - solo.left[i]), abs(full.right[i] - muted.right[i] - solo.right[i]))
        }
        #expect(worst < 1e-5, "largest difference \(worst)")
        #expect(solo.left.contains { abs($0) > 0.01 })

        let half = try Self.render(
            score, options: options,
            mixer: Self.mixer(4) {
                $0.soloed = [2]
                $0.volumes = [2: 50]
            })
        let ratio = rms(half.left) / rms(solo.left)
        #expect(abs(ratio - 0.5) < 1e-4, "ratio \(ratio)")

        let mine = try Self.render(
            score, options: options,
            mixer: Self.mixer(4) {
                $0.singers = [2]
                $0.muteMine = true
            })
        #expect(zip(mine.left, muted.left).allSatisfy { $0 == $1 })
    }

    /// The tenor's A3 in m. 7 is tied into m. 8: practising m. 7 alone, it sounds (and is judged) to the end of
    /// m. 7, inside the range, rather than past it (where a live session, ending with the range, dropped it).
    @Test func aNoteTiedPastTheRangeStopsWithIt() throws {
        var options = PlaybackOptions()
        options.fromMeasure = "7"
        options.toMeasure = "7"
        let schedule = try Schedule(score: Self.example, lines: Self.example.lines, options: options)
        let tenor = schedule.notes.filter { $0.line == 2 }
        #expect(tenor.map(\.midi) == [57])
        #expect(abs(schedule.length - 2.25) < 1e-9 && abs(tenor[0].end - schedule.length) < 1e-9 && tenor[0].quarterLength == 3)
        #expect(schedule.notes.allSatisfy { $0.end <= schedule.length + 1e-9 })
    }

    @Test func loopsRepeatTheRange() throws {
        var options = PlaybackOptions()
        options.fromMeasure = "1"
        options.toMeasure = "2"
        options.passes = 3
        let schedule = try Schedule(score: Self.example, lines: Self.example.lines, options: options)
        let soprano = schedule.notes.filter { $0.line == 0 }.map(\.start)
        // Measures 1-2 of the soprano: G, B, G, B, A, three times, 6 beats of 0.75 s apart.
        #expect(soprano.count == 15)
        #expect(soprano[5] == soprano[0] + 4.5 && soprano[10] == soprano[0] + 9)
        #expect(schedule.length == 13.5)
    }

    @Test func countInClicksThenSoundsTheFirstNote() throws {
        var options = PlaybackOptions()
        options.fromMeasure = "1"
        options.toMeasure = "1"
        options.countIn = true
        options.singer = 2
        let (left, _, schedule) = try Self.render(Self.example, options: options, mixer: Self.mixer(4) { $0.soloed = [2] })
        #expect(schedule.preroll == 2.25)
        let clicks = schedule.notes.filter { $0.line == nil }
        #expect(clicks.map(\.start) == [-2.25, -1.5, -0.75])
        #expect(clicks.map(\.midi) == [76, 77, 77])
        let cue = try #require(schedule.notes.first { $0.line == 2 })
        #expect(cue.start == -2.25 && cue.midi == 59)
        // Sound before the first beat (sample 108000), from the clicks and the cue.
        #expect(left[0..<108000].contains { abs($0) > 0.01 })
    }

    /// With several lines of mine, the count-in gives each one's first note (the tenor's G3, the bass's G2), or none
    /// when asked not to; the starting pitch is those notes alone, one after another, and rendered on a piano each is
    /// heard at its pitch (the soprano's D4, then the tenor's G3).
    @Test func theStartingPitchIsEachOfMyLinesFirstNote() throws {
        var options = PlaybackOptions()
        options.countIn = true
        options.click = true
        options.singer = 2
        options.singers = [2, 3]
        let full = try Schedule(score: Self.example, lines: Self.example.lines, options: options)
        let cues = full.notes.filter { $0.line != nil && $0.start < 0 }
        #expect(cues.map(\.midi) == [55, 43] && cues.allSatisfy { $0.start == -full.preroll })
        options.countInPitch = false
        #expect(
            try Schedule(score: Self.example, lines: Self.example.lines, options: options).notes.allSatisfy {
                $0.line == nil || $0.start >= 0
            })

        let pitch = full.startingPitch(of: [2, 3])
        #expect(pitch.notes.map(\.midi) == [55, 43] && pitch.notes.map(\.line) == [2, 3])
        #expect(pitch.notes.map(\.start) == [0, 1.75] && pitch.notes.map(\.end) == [1.5, 3.25])
        #expect(pitch.preroll == 0 && pitch.length == 3.25 && pitch.lyrics.isEmpty)

        let sounded = full.startingPitch(of: [0, 2])
        let renderer = try SynthRenderer(
            soundFont: try SoundFont.locate(explicit: nil, environment: ProcessInfo.processInfo.environment),
            sampleRate: Self.rate, schedule: sounded, programs: [0, 0, 0, 0], mixer: Mixer(lineCount: 4))
        let (left, _) = renderer.renderAll()
        let frames = try PitchTrackers.track(signal: left, configuration: .init(sampleRate: Double(Self.rate)))
        for (note, expected) in zip(sounded.notes, [62.0, 55.0]) {
            let heard = frames.filter { $0.time > note.start + 0.2 && $0.time < note.end - 0.2 && $0.isVoiced }
                .map { 69 + 12 * log2($0.frequency / 440) }.sorted()
            #expect(heard.count > 10 && abs(heard[heard.count / 2] - expected) < 0.3, "\(expected): \(heard)")
        }
    }

    @Test func clickThroughout() throws {
        var options = PlaybackOptions()
        options.click = true
        options.toMeasure = "2"
        let schedule = try Schedule(score: Self.example, lines: Self.example.lines, options: options)
        #expect(schedule.notes.filter { $0.line == nil }.map(\.start) == [0, 0.75, 1.5, 2.25, 3, 3.75, 4.5])
    }

    /// The tenor alone on a piano, tracked with choir's own detector: each note sounds its written pitch.
    @Test func soloLinePitchFollowsTheNotes() throws {
        let score = Self.example
        let programs = [52, 52, 0, 52]
        let (left, _, schedule) = try Self.render(score, mixer: Self.mixer(4) { $0.soloed = [2] }, programs: programs)
        let frames = try PitchTrackers.track(signal: left, configuration: .init(sampleRate: Double(Self.rate)))
        var checked = 0
        for note in schedule.notes where note.line == 2 && note.end - note.start >= 0.5 {
            let middle = frames.filter { $0.time > note.start + 0.1 && $0.time < note.end - 0.1 && $0.isVoiced }
            guard !middle.isEmpty else { continue }
            let pitches = middle.map { 69 + 12 * log2($0.frequency / 440) }.sorted()
            let median = pitches[pitches.count / 2]
            #expect(abs(median - Double(note.midi)) < 0.2, "note \(note.midi) at \(note.start) s heard as \(median)")
            checked += 1
        }
        #expect(checked >= 15)
    }

    /// Renders the staccato score in blocks of 256, sending `commands` before the block that starts at each frame.
    static func steer(_ commands: [Int: [TransportCommand]], frames: Int, prompt: Int? = nil, holdsAtEnd: Bool = false) throws
        -> (left: [Float], segments: [TransportSegment], renderer: SynthRenderer)
    {
        let lines = staccato.lines
        let schedule = try Schedule(score: staccato, lines: lines, options: PlaybackOptions())
        let renderer = try SynthRenderer(
            soundFont: try SoundFont.locate(explicit: nil, environment: ProcessInfo.processInfo.environment),
            sampleRate: rate, schedule: schedule, programs: Instruments.programs(for: lines, in: staccato),
            mixer: Mixer(lineCount: lines.count), blockSize: 256, promptProgram: prompt)
        renderer.holdsAtEnd = holdsAtEnd
        var left = [Float](repeating: 0, count: frames), right = left
        #expect(commands.keys.allSatisfy { $0 % 256 == 0 }, "commands go in at block starts")
        var segments: [TransportSegment] = []
        for start in stride(from: 0, to: frames, by: 256) {
            for command in commands[start] ?? [] { #expect(renderer.send(command)) }
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    _ = renderer.render(left: l.baseAddress! + start, right: r.baseAddress! + start, frames: min(256, frames - start))
                }
            }
            segments += renderer.segments()
        }
        return (left, segments, renderer)
    }

    @Test func seekingLandsOnTheExactFrameOfTheNextNote() throws {
        // At frame 12800 jump to schedule sample 40000: E4 (sample 48000) must start 8000 frames later.
        let (left, segments, _) = try Self.steer([12800: [.seek(sample: 40000)]], frames: 96000)
        #expect(segments == [TransportSegment(frame: 12800, cursor: 40000, speed: 1)])
        let found = Self.onsets(left)
        #expect(found.count == 3)
        #expect(found[1] >= 20800 && found[1] < 20800 + 64 + 48, "\(found)")
        // C4 was released at the seek: its tail dies long before its written end (sample 24000).
        #expect(rms(Array(left[16000..<20000])) < 0.2 * rms(Array(left[8000..<12000])))
    }

    @Test func speedScalesTheTimeBetweenNotesAndPauseHoldsIt() throws {
        let (left, segments, _) = try Self.steer([0: [.speed(0.5)], 25600: [.pause(true)], 51200: [.pause(false)]], frames: 240000)
        #expect(segments.map(\.speed) == [0.5, 0, 0.5])
        // E4 is at schedule sample 48000: 96000 frames at half speed, plus the 25600 frames paused.
        let found = Self.onsets(left)
        #expect(found.count >= 2)
        #expect(found[1] >= 96000 + 25600 && found[1] < 96000 + 25600 + 64 + 48, "\(found)")
        #expect(rms(Array(left[30000..<51200])) < 1e-3, "paused is silent")
        #expect(segments[1].cursor(at: 40000) == 12800)
    }

    @Test func aLoopJumpsBackAndGainsAndPromptsApply() throws {
        // Loop schedule samples 48000..96000 (E4 and its rest), from the start: E4 every 48000 frames after C4.
        let (looped, segments, _) = try Self.steer([0: [.loop(from: 48000, to: 96000)]], frames: 150000)
        #expect(segments.map(\.frame) == [96000, 144000])
        let found = Self.onsets(looped)
        #expect(found.count == 4)
        for (onset, expected) in zip(found.dropFirst(), [48000, 96000, 144000]) {
            #expect(onset >= expected && onset < expected + 64 + 48, "\(found)")
        }
        // The line's gain set to 0 silences it from that block on; a prompt note sounds over the silence.
        let (muted, _, _) = try Self.steer(
            [256: [.gain(line: 0, gain: 0)], 48128: [.sound(key: 67, frames: 24000)]],
            frames: 96000, prompt: 0)
        #expect(rms(Array(muted[1024..<40000])) < 1e-4)
        let prompt = Array(muted[50000..<70000])
        #expect(rms(prompt) > 0.01)
        let track = try PitchTrackers.track(signal: prompt, configuration: .init(sampleRate: Double(Self.rate)))
        let voiced = track.filter(\.isVoiced).map { 69 + 12 * log2($0.frequency / 440) }
        #expect(!voiced.isEmpty && abs(voiced.sorted()[voiced.count / 2] - 67) < 0.3)
    }

    /// Held at its end, the music pauses there (a segment at the end, speed 0) and renders silence instead of
    /// finishing; played on, it holds again at once; sought back and played, it sounds again.
    @Test func heldAtTheEndItWaitsToBePlayedAgain() throws {
        let total = try Self.steer([:], frames: 256).renderer.totalFrames
        let end = (total / 256 + 4) * 256, again = end + 25600
        let (left, segments, renderer) = try Self.steer(
            [end: [.pause(false)], again: [.seek(sample: 0), .pause(false)]], frames: again + 24000, holdsAtEnd: true)
        #expect(!renderer.isFinished)
        #expect(
            segments == [
                TransportSegment(frame: total, cursor: Double(total), speed: 0),
                TransportSegment(frame: end, cursor: Double(total), speed: 1),
                TransportSegment(frame: end, cursor: Double(total), speed: 0), TransportSegment(frame: again, cursor: 0, speed: 0),
                TransportSegment(frame: again, cursor: 0, speed: 1),
            ])
        #expect(rms(Array(left[total..<again])) < 1e-3, "held is silent")
        let found = Self.onsets(left)
        #expect(found.last.map { $0 >= again && $0 < again + 64 + 48 } == true, "\(found)")
    }

    @Test func badOptionsSayWhatWasExpected() {
        func message(_ change: (inout PlaybackOptions) -> Void) -> String? {
            var options = PlaybackOptions()
            change(&options)
            do {
                _ = try Schedule(score: Self.example, lines: Self.example.lines, options: options)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(message { $0.tempoPercent = 0 } == "tempo 0.0%: expected 10 to 400")
        #expect(message { $0.quarterNotesPerMinute = 100_000 } == "bpm 100000.0: expected 10 to 400 quarter notes per minute")
        #expect(message { $0.fromMeasure = "40" } == "measure 40 is not in the score: expected 0–16")
        #expect(
            message {
                $0.fromMeasure = "5"
                $0.toMeasure = "2"
            } == "measure 2 is not played after the start of the range")
        #expect(throws: PlaybackError.self) {
            try Mixer(
                lineCount: 4,
                request: {
                    var r = Mixer.Request()
                    r.volumes = [0: 150]
                    return r
                }())
        }
        #expect(throws: PlaybackError.self) { try SoundFont.locate(explicit: "/nonexistent.sf2", environment: [:]) }
    }
}

func rms(_ signal: [Float]) -> Double {
    (signal.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, signal.count))).squareRoot()
}
