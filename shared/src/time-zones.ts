/**
 * Time zones as people in Brazil name them: "Horário de Brasília" rather than "America/Sao_Paulo" (ADR 0017).
 * The stored value stays the IANA id; only what a user reads changes.
 */
const BRAZIL_ZONES: Record<string, string> = {
  'America/Sao_Paulo': 'Horário de Brasília',
  'America/Noronha': 'Fernando de Noronha',
  'America/Bahia': 'Bahia (Salvador)',
  'America/Fortaleza': 'Nordeste (Fortaleza)',
  'America/Recife': 'Pernambuco (Recife)',
  'America/Maceio': 'Alagoas e Sergipe (Maceió)',
  'America/Belem': 'Pará e Amapá (Belém)',
  'America/Santarem': 'Oeste do Pará (Santarém)',
  'America/Araguaina': 'Tocantins (Araguaína)',
  'America/Campo_Grande': 'Mato Grosso do Sul (Campo Grande)',
  'America/Cuiaba': 'Mato Grosso (Cuiabá)',
  'America/Porto_Velho': 'Rondônia (Porto Velho)',
  'America/Boa_Vista': 'Roraima (Boa Vista)',
  'America/Manaus': 'Amazonas (Manaus)',
  'America/Eirunepe': 'Oeste do Amazonas (Eirunepé)',
  'America/Rio_Branco': 'Acre (Rio Branco)',
};

/** The Brazilian zones, Brasília first, in the order a picker shows them. */
export const BRAZIL_TIME_ZONES = Object.keys(BRAZIL_ZONES);

/**
 * The few other zones a Brazilian small business plausibly sends from or to (neighbours, Portugal and the
 * Lusophone countries, the big markets), named in pt-BR. A picker offers these after Brazil's, not the runtime's
 * ~400 English city ids: an account that needs another zone keeps it (the picker shows the stored one).
 */
const OTHER_ZONES: Record<string, string> = {
  'America/Argentina/Buenos_Aires': 'Argentina (Buenos Aires)',
  'America/Montevideo': 'Uruguai (Montevidéu)',
  'America/Asuncion': 'Paraguai (Assunção)',
  'America/Santiago': 'Chile (Santiago)',
  'America/La_Paz': 'Bolívia (La Paz)',
  'America/Lima': 'Peru (Lima)',
  'America/Bogota': 'Colômbia (Bogotá)',
  'America/Mexico_City': 'México (Cidade do México)',
  'America/New_York': 'Estados Unidos (Nova York)',
  'America/Los_Angeles': 'Estados Unidos (Los Angeles)',
  'Europe/Lisbon': 'Portugal (Lisboa)',
  'Europe/London': 'Reino Unido (Londres)',
  'Europe/Madrid': 'Espanha (Madri)',
  'Europe/Paris': 'França (Paris)',
  'Africa/Luanda': 'Angola (Luanda)',
  'Africa/Maputo': 'Moçambique (Maputo)',
  'Asia/Tokyo': 'Japão (Tóquio)',
  UTC: 'Tempo universal (UTC)',
};

/** The other zones of a picker, in the order shown (after Brazil's). */
export const OTHER_TIME_ZONES = Object.keys(OTHER_ZONES);

/** "GMT-3" style offset of a zone now (empty when the runtime does not know the zone). */
function offsetLabel(timeZone: string, at: Date): string {
  try {
    const part = new Intl.DateTimeFormat('pt-BR', { timeZone, timeZoneName: 'shortOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName');
    return part?.value.replace('-', '−') ?? '';
  } catch {
    return '';
  }
}

/**
 * What a user reads for a zone: "Horário de Brasília", "Amazonas (Manaus) · GMT−4"; other zones by their city
 * ("New York · GMT−5"), never the raw id with its underscores.
 */
export function timeZoneLabel(timeZone: string, at: Date = new Date()): string {
  if (timeZone === 'America/Sao_Paulo' || timeZone === 'UTC')
    return (BRAZIL_ZONES[timeZone] ?? OTHER_ZONES[timeZone]) as string;
  const name =
    BRAZIL_ZONES[timeZone] ?? OTHER_ZONES[timeZone] ?? (timeZone.split('/').pop() ?? timeZone).replaceAll('_', ' ');
  const offset = offsetLabel(timeZone, at);
  return offset ? `${name} · ${offset}` : name;
}
