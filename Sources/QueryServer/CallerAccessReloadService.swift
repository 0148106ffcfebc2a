// Part of the Server trait: without it, this module is empty.
#if Server
import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads a server's keys, API tokens and allowed origins on each SIGHUP
/// (``CloudKitServer/reloadCallerAccess()``), logging what it now holds or why the reload was
/// refused; the server answers on with what it had when a reload fails. Runs beside the server
/// in its service group while ``ServerConfiguration/callerAccessSource`` is set, and ends with
/// the group's graceful shutdown.
///
/// ```swift
/// services.append(CallerAccessReloadService(server: server, logger: logger))
/// ```
struct CallerAccessReloadService: Service {
    let server: CloudKitServer
    let logger: Logger

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                let access = try await server.reloadCallerAccess()
                logger.notice("reloaded the caller access on SIGHUP: \(access.summary)")
            } catch {
                logger.error("the caller access was not reloaded on SIGHUP, and stays as it was: \(error)")
            }
        }
    }
}
#endif
