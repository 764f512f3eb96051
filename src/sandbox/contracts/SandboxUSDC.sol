// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title SandboxUSDC
/// @notice A 6-decimal ERC-20 that behaves like Circle's USDC for the local sandbox chain: EIP-3009
///         (transfer/receive/cancel with authorization), EIP-2612 permit, EIP-712 domain ("USD Coin", "2").
/// @dev The runtime code is cloned with `anvil_setCode` to the real Base USDC address, so this contract has
///      no constructor, no immutables and no storage that needs initialising except the minter, which lives
///      in slot 0 and is written with `anvil_setStorageAt`. The EIP-712 domain separator is computed on every
///      call from `block.chainid` and `address(this)`.
///
///      Storage layout (keep in sync with src/sandbox/addresses.ts):
///        slot 0: minter (address)
///        slot 1: totalSupply
///        slot 2: balances mapping
///        slot 3: allowances mapping
///        slot 4: authorization states mapping (authorizer => nonce => used/canceled)
///        slot 5: EIP-2612 nonces mapping
contract SandboxUSDC {
    address private _minter;
    uint256 private _totalSupply;
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    mapping(address => mapping(bytes32 => bool)) private _authorizationStates;
    mapping(address => uint256) private _permitNonces;

    string private constant NAME = "USD Coin";
    string private constant SYMBOL = "USDC";
    string private constant VERSION = "2";

    bytes32 private constant EIP712_DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");
    bytes32 public constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    /// @dev ERC-1271 `isValidSignature(bytes32,bytes)` selector, also its success return value.
    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;
    /// @dev Upper bound for the `s` value of a non-malleable secp256k1 signature (n / 2).
    uint256 private constant HALF_CURVE_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Mint(address indexed minter, address indexed to, uint256 amount);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    // ------------------------------------------------------------------ metadata

    function name() external pure returns (string memory) {
        return NAME;
    }

    function symbol() external pure returns (string memory) {
        return SYMBOL;
    }

    function decimals() external pure returns (uint8) {
        return 6;
    }

    function version() external pure returns (string memory) {
        return VERSION;
    }

    function minter() external view returns (address) {
        return _minter;
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(EIP712_DOMAIN_TYPEHASH, keccak256(bytes(NAME)), keccak256(bytes(VERSION)), block.chainid, address(this))
        );
    }

    // ------------------------------------------------------------------ ERC-20

    function totalSupply() external view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address account) external view returns (uint256) {
        return _balances[account];
    }

    function allowance(address owner, address spender) external view returns (uint256) {
        return _allowances[owner][spender];
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }

    function increaseAllowance(address spender, uint256 increment) external returns (bool) {
        _approve(msg.sender, spender, _allowances[msg.sender][spender] + increment);
        return true;
    }

    function decreaseAllowance(address spender, uint256 decrement) external returns (bool) {
        uint256 current = _allowances[msg.sender][spender];
        require(decrement <= current, "SandboxUSDC: decreased allowance below zero");
        _approve(msg.sender, spender, current - decrement);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 current = _allowances[from][msg.sender];
        require(value <= current, "SandboxUSDC: transfer amount exceeds allowance");
        if (current != type(uint256).max) {
            _allowances[from][msg.sender] = current - value;
        }
        _transfer(from, to, value);
        return true;
    }

    // ------------------------------------------------------------------ minting (sandbox faucet)

    function mint(address to, uint256 amount) external returns (bool) {
        require(msg.sender == _minter && msg.sender != address(0), "SandboxUSDC: caller is not the minter");
        require(to != address(0), "SandboxUSDC: mint to the zero address");
        _totalSupply += amount;
        _balances[to] += amount;
        emit Mint(msg.sender, to, amount);
        emit Transfer(address(0), to, amount);
        return true;
    }

    // ------------------------------------------------------------------ EIP-3009

    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationStates[authorizer][nonce];
    }

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        _transferWithAuthorization(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v)
        );
    }

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external {
        _transferWithAuthorization(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
    }

    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        require(to == msg.sender, "SandboxUSDC: caller must be the payee");
        _transferWithAuthorization(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v)
        );
    }

    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external {
        require(to == msg.sender, "SandboxUSDC: caller must be the payee");
        _transferWithAuthorization(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        _cancelAuthorization(authorizer, nonce, abi.encodePacked(r, s, v));
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) external {
        _cancelAuthorization(authorizer, nonce, signature);
    }

    // ------------------------------------------------------------------ EIP-2612

    function nonces(address owner) external view returns (uint256) {
        return _permitNonces[owner];
    }

    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
    {
        _permit(owner, spender, value, deadline, abi.encodePacked(r, s, v));
    }

    function permit(address owner, address spender, uint256 value, uint256 deadline, bytes memory signature) external {
        _permit(owner, spender, value, deadline, signature);
    }

    // ------------------------------------------------------------------ internals

    function _transfer(address from, address to, uint256 value) private {
        require(from != address(0), "SandboxUSDC: transfer from the zero address");
        require(to != address(0), "SandboxUSDC: transfer to the zero address");
        uint256 balance = _balances[from];
        require(value <= balance, "SandboxUSDC: transfer amount exceeds balance");
        unchecked {
            _balances[from] = balance - value;
        }
        _balances[to] += value;
        emit Transfer(from, to, value);
    }

    function _approve(address owner, address spender, uint256 value) private {
        require(owner != address(0), "SandboxUSDC: approve from the zero address");
        require(spender != address(0), "SandboxUSDC: approve to the zero address");
        _allowances[owner][spender] = value;
        emit Approval(owner, spender, value);
    }

    function _transferWithAuthorization(
        bytes32 typeHash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        require(block.timestamp > validAfter, "SandboxUSDC: authorization is not yet valid");
        require(block.timestamp < validBefore, "SandboxUSDC: authorization is expired");
        require(!_authorizationStates[from][nonce], "SandboxUSDC: authorization is used or canceled");
        bytes32 structHash = keccak256(abi.encode(typeHash, from, to, value, validAfter, validBefore, nonce));
        require(_isValidSignatureNow(from, _digest(structHash), signature), "SandboxUSDC: invalid signature");
        _authorizationStates[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        _transfer(from, to, value);
    }

    function _cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) private {
        require(!_authorizationStates[authorizer][nonce], "SandboxUSDC: authorization is used or canceled");
        bytes32 structHash = keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce));
        require(_isValidSignatureNow(authorizer, _digest(structHash), signature), "SandboxUSDC: invalid signature");
        _authorizationStates[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function _permit(address owner, address spender, uint256 value, uint256 deadline, bytes memory signature) private {
        require(deadline >= block.timestamp, "SandboxUSDC: permit is expired");
        uint256 nonce = _permitNonces[owner]++;
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, nonce, deadline));
        require(_isValidSignatureNow(owner, _digest(structHash), signature), "SandboxUSDC: invalid signature");
        _approve(owner, spender, value);
    }

    function _digest(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    /// @dev Like Circle's FiatToken v2.2: an address without code must have signed with its key (65-byte
    ///      ECDSA); an address with code (a smart wallet, or an EOA with an EIP-7702 delegation) is asked
    ///      through ERC-1271.
    function _isValidSignatureNow(address signer, bytes32 digest, bytes memory signature) private view returns (bool) {
        if (signer == address(0)) return false;
        if (signer.code.length == 0) {
            return _recover(digest, signature) == signer;
        }
        (bool ok, bytes memory ret) =
            signer.staticcall(abi.encodeWithSelector(ERC1271_MAGIC, digest, signature));
        return ok && ret.length >= 32 && abi.decode(ret, (bytes32)) == bytes32(ERC1271_MAGIC);
    }

    /// @dev Returns address(0) for any malformed or malleable signature.
    function _recover(bytes32 digest, bytes memory signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        if (v < 27) v += 27;
        if (v != 27 && v != 28) return address(0);
        if (uint256(s) > HALF_CURVE_ORDER) return address(0);
        return ecrecover(digest, v, r, s);
    }
}
