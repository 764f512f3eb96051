export { transcriptRoot, merkleProof, verifyMerkleProof, leafHash, parentHash, merkleRootOfLeaves, type ProofStep } from "./transcript";
export { outputHash, type JudgeDecision } from "./output";
export { receiptTypedData, RECEIPT_DOMAIN, RECEIPT_TYPES, type ReceiptMessage } from "./sign";
export { loadJudgeKey, JUDGE_KEY_FILE } from "./judge-key";
export { buildReceipt, type Receipt } from "./receipt";
export { verifyReceipt, type VerifiableReceipt } from "./verify";
export { keyReceiptSigner, accountReceiptSigner, type ReceiptSigner } from "./signer";
export { receiptDigester } from "./digest";
