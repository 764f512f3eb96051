// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title BatchExecutor
/// @notice A minimal EIP-7702 delegation target. An EOA that delegates to this code can run several calls
///         atomically by sending a transaction to itself with `execute(calls)`.
/// @dev Stateless (no storage is read or written), so it is safe to share between accounts and to place
///      with `anvil_setCode`. Only the account itself may call `execute`: in a 7702 account msg.sender equals
///      address(this) exactly when the account's own key signed the transaction.
contract BatchExecutor {
    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    /// @dev ERC-1271 `isValidSignature(bytes32,bytes)` selector, returned for a valid signature.
    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;
    uint256 private constant HALF_CURVE_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @notice Raised when call `index` reverted without any revert data.
    error CallFailed(uint256 index);
    error OnlySelf();

    event BatchExecuted(uint256 calls);

    /// @notice Runs every call in order; if one reverts, the whole batch reverts with that call's revert data.
    function execute(Call[] calldata calls) external payable {
        if (msg.sender != address(this)) revert OnlySelf();
        uint256 n = calls.length;
        for (uint256 i = 0; i < n; i++) {
            Call calldata c = calls[i];
            (bool ok, bytes memory ret) = c.to.call{value: c.value}(c.data);
            if (!ok) {
                if (ret.length == 0) revert CallFailed(i);
                assembly {
                    revert(add(ret, 0x20), mload(ret))
                }
            }
        }
        emit BatchExecuted(n);
    }

    /// @notice ERC-1271: a signature is valid when the account's own key produced it. With this, a delegated
    ///         EOA can still sign EIP-3009 / EIP-2612 / Permit2 messages, which token contracts verify through
    ///         ERC-1271 once the account has code.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if ((v != 27 && v != 28) || uint256(s) > HALF_CURVE_ORDER) return 0xffffffff;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == address(this) ? ERC1271_MAGIC : bytes4(0xffffffff);
    }

    /// @notice Accept plain ETH transfers (without this, sending ETH to a delegated account would revert).
    receive() external payable {}

    /// @notice Accept ERC-721 safe transfers.
    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC721Received.selector;
    }

    /// @notice Accept ERC-1155 safe transfers.
    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return this.onERC1155BatchReceived.selector;
    }
}
