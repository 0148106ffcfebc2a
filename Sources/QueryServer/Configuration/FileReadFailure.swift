// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation

/// Why a file given to the server could not be read, in the system's words ("No such file or
/// directory", "Permission denied"), for messages that name the file themselves: Foundation's
/// own descriptions differ between platforms and, on Linux, print the whole error's dictionary.
///
/// ```swift
/// do { _ = try String(contentsOfFile: path, encoding: .utf8) }
/// catch { print("\(path): \(FileReadFailure.reason(error))") }   // "/etc/key.pem: No such file or directory"
/// ```
enum FileReadFailure {
    static func reason(_ error: any Error) -> String {
        let described = error as NSError
        for candidate in [described, described.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap({ $0 })
        where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code)))
        }
        switch described.code {
        case NSFileReadNoSuchFileError: return String(cString: strerror(ENOENT))
        case NSFileReadNoPermissionError: return String(cString: strerror(EACCES))
        case NSFileReadInapplicableStringEncodingError: return "it is not UTF-8 text"
        default: return described.localizedDescription
        }
    }
}
#endif
