// Writes the singing-like test signals of ChoirPitchTests as WAV files with their true pitch, for
// Benchmarks/compare-pitch.py: `make-singing-signals DIR`.
import ChoirAudio
import ChoirPitch
import ChoirTestSupport
import Foundation

let folder = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "."
let steps = [0, 2, 4, 5, 7, 9, 7, 5, 12, 11, 9, 7, -5, 0]
let voices: [(String, Double, Double, (inout SyntheticVoice) -> Void)] = [
    ("bass", 123.5, 48000, { _ in }), ("tenor", 147, 48000, { _ in }), ("alto", 220, 48000, { _ in }),
    ("soprano", 392, 48000, { _ in }),
    (
        "breathy", 196, 44100,
        {
            $0.breath = 0.15
            $0.vibratoCents = 60
            $0.scoopCents = -150
        }
    ),
]
for (name, register, rate, adjust) in voices {
    var voice = SyntheticVoice(sampleRate: rate)
    voice.seed = UInt64(register)
    adjust(&voice)
    let notes = steps.enumerated().map { index, step in
        SyntheticVoice.Note(
            start: 0.1 + Double(index) * 0.45, duration: 0.38, frequency: register * PitchMath.ratio(cents: Double(step * 100)))
    }
    let length = notes.last!.start + notes.last!.duration + 0.2
    let samples = voice.render(notes, length: length)
    let wav = WAVFile.encode(interleaved: samples, channels: 1, sampleRate: Int(rate), floatingPoint: true)
    FileManager.default.createFile(atPath: "\(folder)/\(name).wav", contents: Data(wav))
    // The truth every millisecond: time and f0, 0 where nothing is sung.
    var truth = "time_s,f0_hz\n"
    for ms in 0..<Int(length * 1000) {
        let time = Double(ms) / 1000
        truth += "\(time),\(voice.truth(notes, at: time) ?? 0)\n"
    }
    FileManager.default.createFile(atPath: "\(folder)/\(name).truth.csv", contents: Data(truth.utf8))
}
// A minute of singing for timing: the tenor phrase over and over.
var voice = SyntheticVoice(sampleRate: 48000)
let minute = (0..<133).map {
    SyntheticVoice.Note(
        start: Double($0) * 0.45, duration: 0.4, frequency: 147 * PitchMath.ratio(cents: Double(steps[$0 % steps.count] * 100)))
}
let long = voice.render(minute, length: 60)
FileManager.default.createFile(
    atPath: "\(folder)/minute.wav",
    contents: Data(WAVFile.encode(interleaved: long, channels: 1, sampleRate: 48000)))
