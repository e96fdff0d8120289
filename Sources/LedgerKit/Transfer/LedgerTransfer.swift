import Foundation

/// The names of the app transfer: the old team's access groups, the app group a bridge release
/// moves every item into, and the new team's own group. Both teams' builds list the app group
/// under `com.apple.security.application-groups`; it has no team prefix, so it survives the
/// transfer (seed 000, "Team ID change after an app transfer").
public enum LedgerTransfer {
    /// The team that signed v1 to v3 and the bridge release.
    public static let oldTeam = "LEDGER1234"
    /// The team that signs every release after the transfer.
    public static let newTeam = "NEWTEAM999"
    /// The old team's keychain access groups, as v3 lists them: every item the app kept lives in one.
    public static let oldTeamGroups = ["\(oldTeam).com.example.ledger", "\(oldTeam).com.example.shared"]
    /// The app group both teams' builds list: the bridge's temporary home of every item.
    public static let bridgeGroup = "group.com.example.ledger"
    /// The new team's own group, first in its `keychain-access-groups`: where the import writes.
    public static let newTeamGroup = "\(newTeam).com.example.ledger"
    /// The schema version of the bridge release: its step 3 -> 4 moves every item into the app group.
    public static let bridgeVersion = 4
    /// The schema version of the first release under the new team: its step 4 -> 5 imports them.
    public static let importVersion = 5
}
