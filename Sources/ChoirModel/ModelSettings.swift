import FoundationEssentials
import Glibc
internal import TOMLKit

/// Which server, model and key a command uses: its options first, then the singer's configuration file, then
/// OpenRouter with a default model.
///
/// The configuration file (`$XDG_CONFIG_HOME/choir/model.toml`, else `~/.config/choir/model.toml`) holds a key, so
/// it must be readable by its owner alone (mode 0600); choir refuses it otherwise. It may say:
///
///     endpoint = "https://openrouter.ai/api/v1"
///     model = "google/gemini-2.5-pro"
///     api_key = "sk-or-…"
///
/// A key goes only to the server it was given for: `OPENROUTER_API_KEY` to OpenRouter, the file's `api_key` to the
/// file's `endpoint` (OpenRouter when it names none). Naming another server with `--endpoint` sends neither.
public enum ModelSettings {
    /// The file's keys.
    static let keys = ["endpoint", "model", "api_key"]

    /// Where the configuration file is.
    public static func configFile(environment: [String: String]) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "/tmp") + "/.config"
        return base + "/choir/model.toml"
    }

    /// The endpoint the options (`endpoint`, `model`, both optional) and the configuration ask for. Without a key
    /// where OpenRouter needs one, it fails unless `keyOptional` (a dry run shows the requests all the same).
    public static func endpoint(
        endpoint option: String?, model: String?, timeout: Double, environment: [String: String], keyOptional: Bool = false
    ) throws(ModelError) -> ModelEndpoint {
        let file = configFile(environment: environment)
        let config = try read(file)
        let base = option ?? config["endpoint"] ?? ModelEndpoint.openRouter
        guard base.lowercased().hasPrefix("https://") || base.lowercased().hasPrefix("http://"), !ModelEndpoint.host(of: base).isEmpty
        else {
            throw ModelError(
                .configuration,
                "\(option != nil ? "--endpoint" : file) \(ModelEndpoint.redacted(base)): expected the API's base address, http(s)://…/v1")
        }
        var endpoint = ModelEndpoint(base: base, model: model ?? config["model"] ?? ModelEndpoint.defaultModel, key: nil, timeout: timeout)
        let fileServer = ModelEndpoint(base: config["endpoint"] ?? ModelEndpoint.openRouter, model: "", key: nil).address
        if endpoint.isOpenRouter, let key = environment["OPENROUTER_API_KEY"], !key.isEmpty {
            endpoint.key = APIKey(key, source: "OPENROUTER_API_KEY")
        } else if let key = config["api_key"], !key.isEmpty, fileServer == endpoint.address {
            endpoint.key = APIKey(key, source: file)
        }
        if endpoint.key == nil && endpoint.isOpenRouter && !keyOptional {
            throw ModelError(
                .configuration,
                "no key for OpenRouter: set OPENROUTER_API_KEY, or api_key in \(file) (mode 0600); or name another server with --endpoint")
        }
        if endpoint.key != nil, endpoint.base.lowercased().hasPrefix("http://"), !ModelEndpoint.isLoopback(endpoint.host) {
            throw ModelError(
                .configuration, "\(endpoint.base): a key is not sent over plain HTTP to another machine: expected an https:// address")
        }
        return endpoint
    }

    /// The configuration file's settings, or none when there is no file.
    static func read(_ file: String) throws(ModelError) -> [String: String] {
        var info = stat()
        guard stat(file, &info) == 0 else { return [:] }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ModelError(.configuration, "\(file): expected a file") }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw ModelError(
                .configuration,
                "\(file) may be read by others (mode \(String(mode, radix: 8).leftPadded(to: 4))): it holds a key, so it must be "
                    + "mode 0600 (chmod 600 \(file))")
        }
        let text: String
        do {
            text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
        } catch {
            throw ModelError(.configuration, "\(file): cannot be read: expected a TOML file readable by its owner")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ModelError(
                .configuration,
                "\(file):\(error.source.begin.line):\(error.source.begin.column): \(error.description): expected a TOML file")
        } catch {
            throw ModelError(.configuration, "\(file): expected a TOML file")
        }
        var settings: [String: String] = [:]
        for key in table.keys {
            guard keys.contains(key) else {
                throw ModelError(
                    .configuration, "\(file): unknown key `\(key)`: expected \(keys.map { "`\($0)`" }.joined(separator: ", "))")
            }
            guard let value = table[key]?.string else {
                throw ModelError(.configuration, "\(file): `\(key)` is not a string: expected `\(key) = \"…\"`")
            }
            settings[key] = value
        }
        return settings
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
