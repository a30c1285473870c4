export interface StarterTemplate {
  key: string;
  name: string;
  description: string;
  subject: string;
  html: string;
}

/** A template or campaign rendered by the server for one contact (or the sample contact). */
export interface RenderedTemplate {
  subject: string;
  html: string;
  text: string;
  contact: { email: string; name: string | null; fields: Record<string, string> };
}
