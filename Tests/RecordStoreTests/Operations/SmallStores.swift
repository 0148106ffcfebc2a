import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// Small fresh stores (one of every ``TestEngine``) for tests that write.
enum SmallStores {
    /// A fresh store of every engine, in ``TestEngine/allCases`` order.
    static func all() throws -> [Store] {
        try TestEngine.freshStores()
    }

    /// Items `item000`…: `rank` is nil for every third item, `group` cycles over 4 letters.
    static func items(_ count: Int, prefix: String = "item") -> [Record] {
        (0..<count).map { index in
            var record = Record(recordType: "Item", recordID: RecordID(recordName: String(format: "\(prefix)%03d", index)))
            record["title"] = .string(["Alpha", "beta", "Gamma", "delta", "Épsilon"][index % 5] + " \(index % 7)")
            record["group"] = .string(["a", "b", "c", "d"][index % 4])
            record["rank"] = index % 3 == 0 ? nil : .int(Int64((index * 37) % 50))
            record["weight"] = .double(Double(index % 10) / 4)
            return record
        }
    }
}
