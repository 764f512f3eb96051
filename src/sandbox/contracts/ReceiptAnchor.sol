// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title ReceiptAnchor
/// @notice Stores the Merkle root of a batch of Arbiter judge receipts (docs/receipts.md), once per
///         (anchorer, batchId). Roots are keyed by the sender, so anyone may deploy or use the contract and a
///         verifier reads the root of the anchorer it trusts: `rootOf(anchorer, batchId)`.
/// @dev Write-once: a second `anchor` for the same (sender, batchId) with the same root is a no-op (a retried
///      transaction after a crash costs gas but anchors nothing twice and emits no second event); with another
///      root it reverts. No constructor, no immutables: placed with anvil_setCode in the sandbox.
contract ReceiptAnchor {
    /// @notice Emitted once per (anchorer, batchId).
    event Anchored(address indexed anchorer, uint64 indexed batchId, bytes32 root, uint32 leafCount);

    error ZeroRoot();
    error AlreadyAnchored(bytes32 root);

    mapping(address => mapping(uint64 => bytes32)) public rootOf;

    function anchor(uint64 batchId, bytes32 root, uint32 leafCount) external {
        if (root == bytes32(0)) revert ZeroRoot();
        bytes32 have = rootOf[msg.sender][batchId];
        if (have == root) return;
        if (have != bytes32(0)) revert AlreadyAnchored(have);
        rootOf[msg.sender][batchId] = root;
        emit Anchored(msg.sender, batchId, root, leafCount);
    }
}
