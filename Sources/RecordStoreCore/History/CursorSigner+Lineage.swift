extension CursorSigner {
    /// Whether a store identifier is this store's or one of its ancestors' (a store restored from
    /// a backup continues what the backed-up store signed, ``StoreAncestor``).
    package func signs(forStore storeIdentifier: [UInt8]) -> Bool {
        storeIdentifier == secret.storeIdentifier || secret.ancestors.contains { $0.storeIdentifier == storeIdentifier }
    }

    /// Whether this store continues a change token's history: its own tokens, and an ancestor's
    /// up to the ancestor's position in the backup this store was restored from. An ancestor's
    /// later token stands for changes this store never had: the client must read again.
    ///
    /// ```swift
    /// signer.continues(payload)   // false for the original's token minted after the backup
    /// ```
    package func continues(_ payload: ChangeTokenPayload) -> Bool {
        if payload.storeIdentifier == secret.storeIdentifier { return true }
        guard let ancestor = secret.ancestors.last(where: { $0.storeIdentifier == payload.storeIdentifier }) else { return false }
        return payload.after.position <= ancestor.lastPosition
    }
}
