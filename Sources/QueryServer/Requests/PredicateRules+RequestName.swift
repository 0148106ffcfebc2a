// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

extension PredicateRules {
    /// The name a request gives these rules (`rules` of `predicate/check`): `full`, `cloudkit`, `coredata`.
    var requestName: String {
        switch self {
        case .full: "full"
        case .cloudKit: "cloudkit"
        case .coreData: "coredata"
        }
    }
}
#endif
