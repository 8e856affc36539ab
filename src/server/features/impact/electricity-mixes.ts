// Electricity mixes, global warming potential only (kgCO2eq per kWh), all 50 zones of EcoLogits'
// ecologits/data/electricity_mixes.csv (github genai-impact/ecologits, commit 0adc8ab6, column `gwp`;
// ADEME Base Empreinte figures). The 15 zones in shared/impact-methodology.md agree digit for digit.
// Labels are the English short names of the ISO 3166 alpha-3 codes; WOR is EcoLogits' world mix.

export interface ElectricityMix {
  label: string
  kgCo2eqPerKwh: number
}

export const ELECTRICITY_MIXES: Readonly<Record<string, ElectricityMix>> = {
  ARG: { label: 'Argentina', kgCo2eqPerKwh: 0.35895 },
  AUS: { label: 'Australia', kgCo2eqPerKwh: 0.55159 },
  AUT: { label: 'Austria', kgCo2eqPerKwh: 0.10262 },
  BEL: { label: 'Belgium', kgCo2eqPerKwh: 0.11758 },
  BGR: { label: 'Bulgaria', kgCo2eqPerKwh: 0.26421 },
  BRA: { label: 'Brazil', kgCo2eqPerKwh: 0.10321 },
  CAN: { label: 'Canada', kgCo2eqPerKwh: 0.17481 },
  CHE: { label: 'Switzerland', kgCo2eqPerKwh: 0.0366 },
  CHL: { label: 'Chile', kgCo2eqPerKwh: 0.26552 },
  CHN: { label: 'China', kgCo2eqPerKwh: 0.55955 },
  CYP: { label: 'Cyprus', kgCo2eqPerKwh: 0.51224 },
  CZE: { label: 'Czechia', kgCo2eqPerKwh: 0.41386 },
  DEU: { label: 'Germany', kgCo2eqPerKwh: 0.34414 },
  DNK: { label: 'Denmark', kgCo2eqPerKwh: 0.1433 },
  ESP: { label: 'Spain', kgCo2eqPerKwh: 0.14615 },
  EST: { label: 'Estonia', kgCo2eqPerKwh: 0.34102 },
  FIN: { label: 'Finland', kgCo2eqPerKwh: 0.07225 },
  FRA: { label: 'France', kgCo2eqPerKwh: 0.04418 },
  GBR: { label: 'United Kingdom', kgCo2eqPerKwh: 0.21089 },
  GRC: { label: 'Greece', kgCo2eqPerKwh: 0.31976 },
  HUN: { label: 'Hungary', kgCo2eqPerKwh: 0.18282 },
  IDN: { label: 'Indonesia', kgCo2eqPerKwh: 0.68243 },
  IND: { label: 'India', kgCo2eqPerKwh: 0.70832 },
  IRL: { label: 'Ireland', kgCo2eqPerKwh: 0.2797 },
  ISL: { label: 'Iceland', kgCo2eqPerKwh: 0.02833 },
  ITA: { label: 'Italy', kgCo2eqPerKwh: 0.28753 },
  JPN: { label: 'Japan', kgCo2eqPerKwh: 0.48232 },
  KOR: { label: 'South Korea', kgCo2eqPerKwh: 0.41427 },
  LTU: { label: 'Lithuania', kgCo2eqPerKwh: 0.13934 },
  LUX: { label: 'Luxembourg', kgCo2eqPerKwh: 0.13462 },
  LVA: { label: 'Latvia', kgCo2eqPerKwh: 0.13622 },
  MEX: { label: 'Mexico', kgCo2eqPerKwh: 0.48483 },
  MLT: { label: 'Malta', kgCo2eqPerKwh: 0.48416 },
  MYS: { label: 'Malaysia', kgCo2eqPerKwh: 0.60443 },
  NLD: { label: 'Netherlands', kgCo2eqPerKwh: 0.25331 },
  NOR: { label: 'Norway', kgCo2eqPerKwh: 0.03075 },
  NZL: { label: 'New Zealand', kgCo2eqPerKwh: 0.12011 },
  POL: { label: 'Poland', kgCo2eqPerKwh: 0.61498 },
  PRT: { label: 'Portugal', kgCo2eqPerKwh: 0.11229 },
  ROU: { label: 'Romania', kgCo2eqPerKwh: 0.24555 },
  RUS: { label: 'Russia', kgCo2eqPerKwh: 0.4492 },
  SVK: { label: 'Slovakia', kgCo2eqPerKwh: 0.09649 },
  SVN: { label: 'Slovenia', kgCo2eqPerKwh: 0.22765 },
  SWE: { label: 'Sweden', kgCo2eqPerKwh: 0.03582 },
  THA: { label: 'Thailand', kgCo2eqPerKwh: 0.5545 },
  TUR: { label: 'Türkiye', kgCo2eqPerKwh: 0.4697 },
  TWN: { label: 'Taiwan', kgCo2eqPerKwh: 0.63565 },
  UKR: { label: 'Ukraine', kgCo2eqPerKwh: 0.25621 },
  USA: { label: 'United States', kgCo2eqPerKwh: 0.38355 },
  WOR: { label: 'World', kgCo2eqPerKwh: 0.47301 },
}
