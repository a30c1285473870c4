/** GET /api/public-config: what the browser may know of the configuration (an explicit list: nothing secret). */
export interface PublicConfig {
  contactEmail: string;
  /** The privacy policy's controller (razão social, formatted CNPJ/CPF) and encarregado; empty when unset. */
  operatorLegalName: string;
  operatorTaxId: string;
  dpoName: string;
  dpoEmail: string;
  googleSignIn: boolean;
  minPasswordLength: number;
  maxPasswordLength: number;
  priceMillis: number;
  /** Whether the development mailbox (/dev/mailbox) is on. */
  devMailbox: boolean;
  /** Smallest Pix top-up the server accepts (the top-up form's minimum), in millis. */
  topupMinMillis: number;
}
