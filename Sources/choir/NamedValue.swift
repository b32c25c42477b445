import ArgumentParser
import ChoirScore

/// The case of `T` that `value` names, in any case, for `option`; else the one-line error every slip of choir
/// gets: "--divisi uper: unknown value 'uper' (did you mean 'upper'?): expected upper or lower" (status 64).
func named<T: CaseIterable & RawRepresentable>(_ value: String, for option: String) throws(ValidationError) -> T
where T.RawValue == String {
    if let named = T(rawValue: value.lowercased()) { return named }
    let names = T.allCases.map(\.rawValue)
    let expected = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
    throw ValidationError("\(option) \(value): " + NearestName.unknown("value", value, among: names, expected: expected))
}
