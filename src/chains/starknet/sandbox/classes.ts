/**
 * Sierra-shaped class objects for the modelled contracts (what starknet_getClass/getClassAt answer).
 * They carry the real entry-point selectors and a Cairo 1 ABI so clients detect Cairo 1 and can encode
 * calls, but no real Sierra program: the first program felts spell ARBITER_SANDBOX_MODEL, because the
 * node runs the contracts natively, not as Cairo.
 */
import { toFeltHex, shortString } from "../felt";
import { OZ_ACCOUNT_CLASS_HASH, SANDBOX_ERC20_CLASS_HASH, selector } from "../constants";

type AbiFn = { name: string; inputs: [string, string][]; outputs: string[]; view?: boolean };

const U256 = "core::integer::u256";
const FELT = "core::felt252";
const ADDR = "core::starknet::contract_address::ContractAddress";
const BOOL = "core::bool";

const ERC20_FNS: AbiFn[] = [
  { name: "transfer", inputs: [["recipient", ADDR], ["amount", U256]], outputs: [BOOL] },
  { name: "transfer_from", inputs: [["sender", ADDR], ["recipient", ADDR], ["amount", U256]], outputs: [BOOL] },
  { name: "transferFrom", inputs: [["sender", ADDR], ["recipient", ADDR], ["amount", U256]], outputs: [BOOL] },
  { name: "approve", inputs: [["spender", ADDR], ["amount", U256]], outputs: [BOOL] },
  { name: "balance_of", inputs: [["account", ADDR]], outputs: [U256], view: true },
  { name: "balanceOf", inputs: [["account", ADDR]], outputs: [U256], view: true },
  { name: "allowance", inputs: [["owner", ADDR], ["spender", ADDR]], outputs: [U256], view: true },
  { name: "decimals", inputs: [], outputs: ["core::integer::u8"], view: true },
  { name: "symbol", inputs: [], outputs: [FELT], view: true },
  { name: "name", inputs: [], outputs: [FELT], view: true },
  { name: "total_supply", inputs: [], outputs: [U256], view: true },
  { name: "totalSupply", inputs: [], outputs: [U256], view: true },
];

const CALL_STRUCT = "core::starknet::account::Call";
const ACCOUNT_FNS: AbiFn[] = [
  { name: "__execute__", inputs: [["calls", `core::array::Array::<${CALL_STRUCT}>`]], outputs: ["core::array::Array::<core::array::Span::<core::felt252>>"] },
  { name: "__validate__", inputs: [["calls", `core::array::Array::<${CALL_STRUCT}>`]], outputs: [FELT] },
  { name: "is_valid_signature", inputs: [["hash", FELT], ["signature", "core::array::Array::<core::felt252>"]], outputs: [FELT], view: true },
  { name: "isValidSignature", inputs: [["hash", FELT], ["signature", "core::array::Array::<core::felt252>"]], outputs: [FELT], view: true },
  { name: "get_public_key", inputs: [], outputs: [FELT], view: true },
  { name: "supports_interface", inputs: [["interface_id", FELT]], outputs: [BOOL], view: true },
  { name: "__validate_deploy__", inputs: [["class_hash", FELT], ["contract_address_salt", FELT], ["public_key", FELT]], outputs: [FELT] },
];

function sierraClass(fns: AbiFn[], extraAbi: unknown[]) {
  const abi = [
    { type: "struct", name: U256, members: [{ name: "low", type: "core::integer::u128" }, { name: "high", type: "core::integer::u128" }] },
    { type: "enum", name: BOOL, variants: [{ name: "False", type: "()" }, { name: "True", type: "()" }] },
    ...extraAbi,
    ...fns.map((f) => ({
      type: "function",
      name: f.name,
      inputs: f.inputs.map(([name, type]) => ({ name, type })),
      outputs: f.outputs.map((type) => ({ type })),
      state_mutability: f.view ? "view" : "external",
    })),
  ];
  return {
    sierra_program: ["0x1", "0x7", "0x0", toFeltHex(shortString("ARBITER_SANDBOX_MODEL")), toFeltHex(shortString("not a Cairo VM"))],
    contract_class_version: "0.1.0",
    entry_points_by_type: {
      CONSTRUCTOR: [],
      EXTERNAL: fns
        .map((f) => ({ selector: toFeltHex(selector(f.name)), function_idx: 0 }))
        .sort((a, b) => (BigInt(a.selector) < BigInt(b.selector) ? -1 : 1))
        .map((e, i) => ({ ...e, function_idx: i })),
      L1_HANDLER: [],
    },
    abi: JSON.stringify(abi),
  };
}

const CALL_ABI = {
  type: "struct",
  name: CALL_STRUCT,
  members: [
    { name: "to", type: ADDR },
    { name: "selector", type: FELT },
    { name: "calldata", type: "core::array::Span::<core::felt252>" },
  ],
};

export const CLASSES: Record<string, ReturnType<typeof sierraClass>> = {
  [BigInt(SANDBOX_ERC20_CLASS_HASH).toString(16)]: sierraClass(ERC20_FNS, []),
  [BigInt(OZ_ACCOUNT_CLASS_HASH).toString(16)]: sierraClass(ACCOUNT_FNS, [CALL_ABI]),
};

export const classByHash = (h: bigint) => CLASSES[h.toString(16)];
