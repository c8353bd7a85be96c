/**
 * The payment methods of spec §9 by their ids. Brand names are written as their owners write them, in every
 * language; the three generic methods have a catalogue text (payments: checkout.methods.*).
 */
export const METHOD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  maestro: 'Maestro',
  paypal: 'PayPal',
  ideal: 'iDEAL',
  bancontact: 'Bancontact',
  blik: 'BLIK',
  giropay: 'giropay',
  sofort: 'SOFORT',
  eps: 'EPS',
  applepay: 'Apple Pay',
  paysafecard: 'paysafecard',
  postepay: 'PostePay',
  nexi: 'Nexi',
  cartebancaire: 'Carte Bancaire',
};

/** Card brands (one provider method): a failed recurring payment with one of them offers manual card entry. */
export const CARD_METHODS = ['visa', 'mastercard', 'maestro', 'creditcard', 'postepay', 'nexi', 'cartebancaire'];
