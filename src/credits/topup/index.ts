export { createTopupService, notConfigured, type TopupService, type TopupServiceDeps } from "./service";
export { chooseTopupRails, type TopupRails, type TopupRailsChoice } from "./setup";
export { paymentClaimed, type PaymentInput, type PurchaseRequest } from "./purchase";
export { V1_NOT_SUPPORTED, WALLET_UNSUPPORTED, type PurchaseOutcome, type TopupReceipt, type PaymentRequiredBody } from "./outcomes";
export { parseQuote, quoteForCredits, usdString, USD_MAX, USD_MIN, CREDITS_PER_USD, type CreditLimits, type Quote } from "./quote";
export { TOPUP_GUIDE_PATH, TOPUP_PATH, type TopupSettings } from "./terms";
export { CREDIT_REASON } from "./claims";
