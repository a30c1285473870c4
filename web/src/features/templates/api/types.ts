export interface TemplateSummary {
  id: string;
  name: string;
  subject: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Template extends TemplateSummary {
  html: string;
  builderProject: Record<string, unknown> | null;
  text: string | null;
}

export interface StarterTemplate {
  key: 'newsletter' | 'promocao' | 'anuncio';
  name: string;
  subject: string;
  html: string;
}

export const TEMPLATES_KEY = ['templates'] as const;
