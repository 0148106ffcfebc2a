extension CursorSigner {
    /// The token of a payload.
    package func sign(_ payload: CursorPayload) -> QueryCursor {
        QueryCursor(token: seal(payload.encoded()))
    }

    /// The payload of a token this store signed, or the reason it is refused.
    package func open(_ cursor: QueryCursor) throws(RecordStoreError) -> CursorPayload {
        let payload = try unseal(cursor.stringValue, version: CursorPayload.version, refusal: RecordStoreError.invalidCursor)
        guard let decoded = CursorPayload(decoding: payload) else { throw .invalidCursor(.malformed) }
        return decoded
    }
}
