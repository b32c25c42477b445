import ArgumentParser
import ChoirAudio
import ChoirPitch
import ChoirScore
import Glibc
import Synchronization

/// Set by SIGINT; the live loops poll it.
let interrupted = Atomic<Bool>(false)

/// `choir pitch --live`: captures on a real-time thread and analyses hop by hop on this one. On a terminal it
/// shows note, octave and cents; otherwise it prints the same CSV as for files.
struct LiveTuner {
    var configuration: YINDetector.Configuration
    var device: String
    /// Stop after this many seconds (for scripts and tests); nil runs until q or Ctrl-C.
    var duration: Double?

    func run() throws {
        let detector: YINDetector
        do {
            detector = try YINDetector(configuration)
        } catch {
            throw fail("--live: \(error)")
        }
        let rate = Int(configuration.sampleRate)
        let ring = SPSCRing<Float>(minimumCapacity: rate, filler: 0)
        let capture: ALSACapture
        do {
            capture = try ALSACapture(device: device, sampleRate: rate, periodFrames: 256, ring: ring)
            try capture.start()
        } catch {
            throw fail("\(error)")
        }
        signal(SIGINT) { _ in interrupted.store(true, ordering: .relaxed) }
        let terminal = isatty(1) == 1 ? RawTerminal() : nil
        defer { terminal?.restore() }

        let window = configuration.window, hop = configuration.hop
        let frames = SlidingWindow(window: window, hop: hop)
        var writer = PitchWriter(format: .csv)
        if terminal == nil { writer.begin(sampleRate: rate, window: window, hop: hop) }
        while !interrupted.load(ordering: .relaxed) && capture.isRunning {
            if let duration, Double(frames.consumed + hop) > duration * configuration.sampleRate { break }
            if terminal?.readKey() == UInt8(ascii: "q") { break }
            guard frames.advance(from: ring) else {
                usleep(2000)
                continue
            }
            let result = frames.withSamples { detector.analyse($0, time: frames.centre(sampleRate: configuration.sampleRate)) }
            if let terminal {
                terminal.show(TunerLine.render(result))
            } else if frames.isFull {
                writer.write(result)
            }
        }
        writer.end()
        capture.stop()
        terminal?.restore()
        var standardError = StandardError()
        print("choir: captured \(String(printf: "%.1f", Double(frames.consumed) / configuration.sampleRate)) s from '\(device)', "
              + "\(capture.overruns) overruns, \(ring.dropped) samples dropped", to: &standardError)
        if let error = capture.error { throw fail(error) }
    }
}

/// The tuner's one line: note and octave, cents, a needle and the frequency.
enum TunerLine {
    static func render(_ frame: PitchFrame) -> String {
        guard frame.isVoiced else { return "   –      listening…" }
        let exact = 69 + 12 * log2(frame.frequency / 440)
        let midi = Int(exact.rounded())
        let cents = Int(((exact - Double(midi)) * 100).rounded())
        let position = max(0, min(20, 10 + cents / 5))
        var needle = Array(repeating: "─", count: 21)
        needle[10] = "┼"
        needle[position] = "●"
        let name = PitchName.name(midi: midi)
        let signed = cents > 0 ? "+\(cents)" : "\(cents)"
        return name.padded(to: 5) + signed.padded(to: 4)
            + "¢  " + needle.joined() + "  " + String(printf: "%7.2f Hz", frame.frequency)
    }
}

/// A terminal in raw mode, for single keys, restored on the way out.
final class RawTerminal {
    private var original = termios()
    private var restored = false

    init?() {
        guard isatty(0) == 1, tcgetattr(0, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSANOW, &raw)
        FileOutput.write("\u{1B}[?25l")
    }

    /// A key pressed since the last call, if any.
    func readKey() -> UInt8? {
        var byte: UInt8 = 0
        return Glibc.read(0, &byte, 1) == 1 ? byte : nil
    }

    func show(_ line: String) { FileOutput.write("\r\u{1B}[2K" + line) }

    func restore() {
        guard !restored else { return }
        restored = true
        tcsetattr(0, TCSANOW, &original)
        FileOutput.write("\u{1B}[?25h\n")
    }
}

enum FileOutput {
    /// Writes `text` to a file descriptor, standard output unless told.
    static func write(_ text: String, to descriptor: Int32 = 1) {
        var text = text
        text.withUTF8 { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}
