/**
 * The shapes of the payment calls (packages/contracts/src/payments.ts). Amounts are integers in minor units of
 * `currency`; prices of what members do (message, gift, photo) are in credits.
 */
export type {
  CreditPackage,
  DiscountCodeView,
  Movement,
  Order,
  PackagesResponse,
  PaymentMethodOption as PaymentMethod,
  PaymentOrderStatus as OrderStatus,
  PricingResponse,
  Receipt,
  StartPaymentInput,
  StartPaymentResponse,
  TransactionResponse,
  TransactionsResponse,
} from '@amora/contracts';
