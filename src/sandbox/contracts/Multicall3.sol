// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Multicall3 (sandbox implementation)
/// @notice Batches calls in one eth_call or transaction. Function names, argument and return types match the
///         canonical Multicall3 ABI deployed at 0xcA11bde05977b3631167028862bE2a173976CA11 on every major chain,
///         so viem's `multicall` and the x402 facilitator's diagnostics work against it unchanged.
/// @dev Placed with `anvil_setCode`; stateless.
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Call3Value {
        address target;
        bool allowFailure;
        uint256 value;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Runs every call; reverts if any fails. Returns the block number and each call's return data.
    function aggregate(Call[] calldata calls) public payable returns (uint256 blockNumber, bytes[] memory returnData) {
        blockNumber = block.number;
        uint256 n = calls.length;
        returnData = new bytes[](n);
        for (uint256 i = 0; i < n; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
            require(ok, "Multicall3: call failed");
            returnData[i] = ret;
        }
    }

    /// @notice Runs every call; when `requireSuccess` is true a failing call reverts the whole batch.
    function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory returnData) {
        uint256 n = calls.length;
        returnData = new Result[](n);
        for (uint256 i = 0; i < n; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(ok, "Multicall3: call failed");
            returnData[i] = Result(ok, ret);
        }
    }

    function tryBlockAndAggregate(bool requireSuccess, Call[] calldata calls)
        public
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory returnData)
    {
        blockNumber = block.number;
        blockHash = blockhash(block.number);
        returnData = tryAggregate(requireSuccess, calls);
    }

    function blockAndAggregate(Call[] calldata calls)
        public
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory returnData)
    {
        (blockNumber, blockHash, returnData) = tryBlockAndAggregate(true, calls);
    }

    /// @notice Runs every call; a failing call reverts the batch unless its `allowFailure` is set.
    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        uint256 n = calls.length;
        returnData = new Result[](n);
        for (uint256 i = 0; i < n; i++) {
            Call3 calldata c = calls[i];
            (bool ok, bytes memory ret) = c.target.call(c.callData);
            require(ok || c.allowFailure, "Multicall3: call failed");
            returnData[i] = Result(ok, ret);
        }
    }

    /// @notice Like aggregate3 with a value per call; msg.value must equal the sum of the values.
    function aggregate3Value(Call3Value[] calldata calls) public payable returns (Result[] memory returnData) {
        uint256 n = calls.length;
        returnData = new Result[](n);
        uint256 total = 0;
        for (uint256 i = 0; i < n; i++) {
            Call3Value calldata c = calls[i];
            total += c.value;
            (bool ok, bytes memory ret) = c.target.call{value: c.value}(c.callData);
            require(ok || c.allowFailure, "Multicall3: call failed");
            returnData[i] = Result(ok, ret);
        }
        require(msg.value == total, "Multicall3: value mismatch");
    }

    function getBlockHash(uint256 blockNumber) public view returns (bytes32 blockHash) {
        blockHash = blockhash(blockNumber);
    }

    function getBlockNumber() public view returns (uint256 blockNumber) {
        blockNumber = block.number;
    }

    function getCurrentBlockCoinbase() public view returns (address coinbase) {
        coinbase = block.coinbase;
    }

    /// @dev Returns PREVRANDAO since the merge, as the canonical contract does.
    function getCurrentBlockDifficulty() public view returns (uint256 difficulty) {
        difficulty = block.prevrandao;
    }

    function getCurrentBlockGasLimit() public view returns (uint256 gaslimit) {
        gaslimit = block.gaslimit;
    }

    function getCurrentBlockTimestamp() public view returns (uint256 timestamp) {
        timestamp = block.timestamp;
    }

    function getEthBalance(address addr) public view returns (uint256 balance) {
        balance = addr.balance;
    }

    function getLastBlockHash() public view returns (bytes32 blockHash) {
        unchecked {
            blockHash = blockhash(block.number - 1);
        }
    }

    function getBasefee() public view returns (uint256 basefee) {
        basefee = block.basefee;
    }

    function getChainId() public view returns (uint256 chainid) {
        chainid = block.chainid;
    }
}
