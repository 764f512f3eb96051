// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IERC20Minimal {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

interface IWETHMinimal {
    function deposit() external payable;
}

/// @title ConstantProductPool (sandbox)
/// @notice A WETH/USDC x*y=k pool with a 0.3% fee on the input, for sandbox swaps. Token addresses are the
///         Base WETH predeploy and Base USDC, fixed in the code, so the runtime can be placed with
///         `anvil_setCode` and seeded by sending tokens to it and calling `sync()`.
/// @dev Storage layout: slot 0 reserve0 (WETH), slot 1 reserve1 (USDC), slot 2 re-entrancy lock.
contract ConstantProductPool {
    address public constant token0 = 0x4200000000000000000000000000000000000006; // WETH
    address public constant token1 = 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913; // USDC
    uint256 public constant FEE_BPS = 30;

    uint256 private _reserve0;
    uint256 private _reserve1;
    uint256 private _locked;

    event Swap(
        address indexed sender,
        address indexed tokenIn,
        address indexed tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        address to
    );
    event Sync(uint256 reserve0, uint256 reserve1);

    modifier nonReentrant() {
        require(_locked == 0, "ConstantProductPool: locked");
        _locked = 1;
        _;
        _locked = 0;
    }

    function getReserves() external view returns (uint256 reserve0, uint256 reserve1) {
        return (_reserve0, _reserve1);
    }

    /// @notice Output for `amountIn` of `tokenIn` at the current reserves, after the 0.3% fee.
    function getAmountOut(address tokenIn, uint256 amountIn) public view returns (uint256) {
        (uint256 reserveIn, uint256 reserveOut) = _orientedReserves(tokenIn);
        return _amountOut(amountIn, reserveIn, reserveOut);
    }

    /// @notice Sells exactly `amountIn` of `tokenIn` (pulled from the caller with transferFrom, or sent as ETH
    ///         in msg.value when `tokenIn` is WETH) for the other token, sent to `to`.
    ///         Reverts when the output would be below `minAmountOut`.
    function swapExactIn(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to)
        external
        payable
        nonReentrant
        returns (uint256 amountOut)
    {
        require(amountIn > 0, "ConstantProductPool: zero input");
        require(to != address(0) && to != token0 && to != token1, "ConstantProductPool: invalid recipient");
        (uint256 reserveIn, uint256 reserveOut) = _orientedReserves(tokenIn);
        amountOut = _amountOut(amountIn, reserveIn, reserveOut);
        require(amountOut > 0, "ConstantProductPool: insufficient liquidity");
        require(amountOut >= minAmountOut, "ConstantProductPool: insufficient output amount");

        if (msg.value > 0) {
            require(tokenIn == token0 && msg.value == amountIn, "ConstantProductPool: bad ETH value");
            IWETHMinimal(token0).deposit{value: msg.value}();
        } else {
            _call(tokenIn, abi.encodeCall(IERC20Minimal.transferFrom, (msg.sender, address(this), amountIn)));
        }
        address tokenOut = tokenIn == token0 ? token1 : token0;
        _call(tokenOut, abi.encodeCall(IERC20Minimal.transfer, (to, amountOut)));
        _sync();
        emit Swap(msg.sender, tokenIn, tokenOut, amountIn, amountOut, to);
    }

    /// @notice Sets the reserves to the pool's token balances (used to seed liquidity).
    function sync() external nonReentrant {
        _sync();
    }

    function _sync() private {
        _reserve0 = IERC20Minimal(token0).balanceOf(address(this));
        _reserve1 = IERC20Minimal(token1).balanceOf(address(this));
        emit Sync(_reserve0, _reserve1);
    }

    function _orientedReserves(address tokenIn) private view returns (uint256 reserveIn, uint256 reserveOut) {
        if (tokenIn == token0) return (_reserve0, _reserve1);
        require(tokenIn == token1, "ConstantProductPool: unknown token");
        return (_reserve1, _reserve0);
    }

    function _amountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) private pure returns (uint256) {
        if (amountIn == 0 || reserveIn == 0 || reserveOut == 0) return 0;
        uint256 inAfterFee = amountIn * (10_000 - FEE_BPS);
        return (inAfterFee * reserveOut) / (reserveIn * 10_000 + inAfterFee);
    }

    /// @dev Calls a token and requires success plus a true (or empty) boolean return.
    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) {
            if (ret.length > 0) {
                assembly {
                    revert(add(ret, 0x20), mload(ret))
                }
            }
            revert("ConstantProductPool: token call failed");
        }
        require(ret.length == 0 || abi.decode(ret, (bool)), "ConstantProductPool: token call returned false");
    }
}
