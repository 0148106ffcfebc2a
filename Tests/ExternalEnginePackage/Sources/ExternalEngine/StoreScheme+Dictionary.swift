@_spi(StorageEngine) import RecordStoreCore

extension StoreScheme {
    /// `dictionary:` opens a new, empty ``DictionaryEngine``.
    ///
    /// ```swift
    /// StoreRegistry.shared.register(.dictionary)
    /// ```
    static let dictionary = StoreScheme(names: ["dictionary"], usage: "dictionary:", answersSynchronously: true) { _, _ in
        DictionaryEngine()
    }
}
