// The screening benchmark's people and list, drawn so that accidental near-matches happen about as often as with
// real data (bench/README.md, row `screening`, says why each choice was made):
//  - payees: real given and family names of a European/US payout business's customers (faker's locale lists:
//    English, German, French, Spanish, Italian, Polish, Dutch, Portuguese, Romanian, Swedish, Turkish, Vietnamese),
//    plus minorities whose names share their pools with the sanctions list (Arabic/Persian/Afghan and Chinese/Korean
//    romanised by hand below, Russian/Ukrainian from faker transliterated, some left in Cyrillic), every pool
//    shuffled then drawn with a Zipf skew (a few names very common, a long tail), as real names are; 15% are
//    businesses (a family name or two with a trade and a legal suffix);
//  - the list: like OFAC's SDN list, about half entities (trading, shipping, oil, exchange companies from the Gulf,
//    Russia, China and Hong Kong with their suffixes) and half individuals mostly Arabic/Persian, Russian with
//    patronymics, Chinese/Korean and Latin American names, "LAST, Given" with one to three aliases spelled
//    another way (Muhammad/Mohammed, al-X/X, Yevgeny/Evgeniy), as transliteration varies between sources.
// Everything comes from one seeded generator: every run screens the same names.
import { de, en, es, fr, it, nl, pl, pt_PT, ro, ru, sv, tr, uk, vi } from "@faker-js/faker";
import transliterate from "@sindresorhus/transliterate";
import type { ListedParty } from "../test/screening/list-writers.js";

/** A small deterministic generator (LCG), so every run draws the same names. */
export function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

type Random = () => number;

/**
 * A pool drawn with a Zipf-Mandelbrot skew (weight 1/(rank + 10)^s), the shape fitted to name frequencies: the
 * commonest name of a 1,500-name pool about 2% of draws (James, Smith: 1 to 3% in their countries), a long tail.
 * Shuffled first, as faker's lists are alphabetical.
 */
class Pool {
  private readonly values: string[];
  private readonly cumulative: number[];
  constructor(values: readonly string[], random: Random, exponent = 1) {
    this.values = [...new Set(values.map((v) => v.trim()).filter((v) => v.length > 0))];
    for (let i = this.values.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [this.values[i], this.values[j]] = [this.values[j] as string, this.values[i] as string];
    }
    let total = 0;
    this.cumulative = this.values.map((_, rank) => {
      total += 1 / (rank + 10) ** exponent;
      return total;
    });
  }
  get size() {
    return this.values.length;
  }
  draw(random: Random): string {
    const target = random() * (this.cumulative.at(-1) as number);
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cumulative[mid] as number) < target) lo = mid + 1;
      else hi = mid;
    }
    return this.values[lo] as string;
  }
}

const genderless = (d: { generic?: string[]; female?: string[]; male?: string[] } | string[] | null | undefined): string[] =>
  d === undefined || d === null ? [] : Array.isArray(d) ? d : [...(d.generic ?? []), ...(d.female ?? []), ...(d.male ?? [])];

// Romanised by hand (faker's Arabic, Persian and Chinese lists are in their own scripts, which no payee form or
// OFAC entry uses as such): the given and family names that fill the SDN list's SDGT, IRAN, SYRIA, IRAQ and
// Afghan programmes, and the Chinese and Korean ones of its DPRK and China-related programmes.
const ARABIC_GIVEN =
  "Muhammad Mohammed Mohamed Ahmad Ahmed Ali Hasan Hassan Husayn Hussein Abdullah Abdulrahman Abdulaziz Abdelkader Omar Umar Khalid Khaled Ibrahim Yusuf Youssef Mustafa Mahmoud Mahmud Salim Saleh Salih Said Saeed Hamid Hamad Hamza Jamal Karim Nasser Nasir Faisal Fahd Tariq Tarek Walid Waleed Ziad Ziyad Yasin Yassin Anwar Bilal Bashir Adel Adil Amin Amir Ayman Aziz Badr Fadi Fares Faris Fawzi Ghassan Habib Hadi Haitham Haytham Hisham Imad Ismail Issa Jaber Jafar Jalal Kamal Khalil Majid Maher Mansour Marwan Mazen Munir Murad Musa Nabil Nadir Naji Nizar Osama Usama Qasim Rami Rashid Riyad Sabri Sadiq Sami Samir Sharif Shukri Sulayman Suleiman Talal Taha Tawfiq Wael Yahya Yaqub Younis Zakariya Zayd Fatima Aisha Maryam Khadija Zaynab Amina Layla Huda Nour Rania Samira Reza Mohsen Hossein Mehdi Javad Ghasem Abbas Gholam Nasrullah Sirajuddin Abdul Ghani Hafiz Gul Noor Zabihullah".split(
    " ",
  );
const ARABIC_FAMILY =
  "al-Masri al-Baghdadi al-Tikriti al-Qahtani al-Otaibi al-Zahrani al-Shehri al-Ghamdi al-Harbi al-Dosari al-Mutairi al-Anzi al-Shammari al-Hashimi al-Husseini al-Jaburi al-Dulaimi al-Ubaydi al-Kubaisi al-Rawi al-Ani al-Hiti al-Najjar al-Haddad al-Khatib al-Sayed al-Amin al-Bakri al-Hakim al-Hamadi al-Nasser al-Tamimi al-Zubaidi al-Saadi al-Obeidi al-Fahdawi al-Issawi al-Assad Makhlouf Shalish Haddad Khoury Nasrallah Fadlallah Qassem Mughniyeh Badreddine Hamadeh Saleh Mansour Nasser Yassin Darwish Zaidan Hijazi Kassem Barakat Shaker Abdelaziz Abdelrahman Hamdan Hamdi Rashed Othman Osman Qureshi Siddiqui Haqqani Mehsud Akhund Mansoor Noorzai Barakzai Popalzai Achakzai Alizai Yusufzai Wardak Zadran Khan Shah Rahimi Karimi Hosseini Mousavi Rezaei Ahmadi Jafari Sadeghi Soleimani Qasemi Naqdi Vahidi Salehi Shamkhani Larijani Tehrani Shirazi Esfahani Tabrizi Hamadani Kazemi Mohammadi Hashemi Nouri Bagheri Alavi Moradi Ebrahimi".split(
    " ",
  );
/** Family names from a place or a tribe (nisba): the long tail that makes most Arabic family names rare. */
const NISBA_PLACES =
  "Basr Masr Mosul Halab Dimashq Homs Hama Idlib Raqq Tikrit Fallujah Ramad Anbar Kirkuk Diyal Najaf Karbala Yemen Sanaa Aden Hadram Marib Lib Tarabuls Benghaz Misrat Tunis Jazair Maghrib Sudan Somal Urdun Filastin Ghazz Kuwait Qatar Bahrain Oman Emirat Saud Najd Hijaz Makk Madan Taif Jizan Sham Iraq Iskandar Sharq Daraa Lubnan Turkistan Uzbek Kurd Afghan Pakistan Hind Balush Jawf Qasim Ahsa Qatif Zarqa Irbid Maan Salt Karak Tafil Jenin Nablus Khalil Tulkarm Qalqil Rafah Khanyun Suwayd Quneitr Tartus Latak Baniyas Jablah Hasak Qamishl Deir Mayadin Bukamal Anah Rawah Hadith Haqlaniy Samarr Balad Dujail Baqub Muqdadiy Khanaqin Kut Amarah Nasiriy Samawah Diwaniy Hill Kufa".split(
    " ",
  );

const CHINESE_FAMILY =
  "Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Gao Lin Luo Zheng Liang Xie Song Tang Han Feng Deng Cao Peng Zeng Xiao Tian Dong Pan Yuan Cai Jiang Yu Du Ye Cheng Wei Su Lu Ding Ren Shen Yao Jin Kim Pak Choe Jong Kang Cho Yun Jang Ri Sin Kwon Hwang An Ryu Hong".split(
    " ",
  );
const CHINESE_GIVEN =
  "Wei Fang Min Jing Qiang Lei Jun Yong Yan Jie Tao Ming Chao Xiuying Xiaoming Jianguo Jianhua Guoqiang Hongwei Haiyan Xiaohong Zhiqiang Yuxuan Zihan Haoran Zhiwei Jianjun Weidong Xiaoling Lijuan Guohua Jianping Wenjie Yifan Chunhua Hailong Dongmei Yanping Xiaojun Zhenhua Shuang Ning Gang Hui Kai Long Peng Rui Xin Yi Chol Myong Chol Song Il Kwang Ho Yong Nam Il Su Hyok Su Gil Tae Song Hak Chol Kyong Hui Jong Nam".split(
    " ",
  );
const LATIN_SDN_FAMILY =
  "Guzman Loera Zambada Caro Quintero Arellano Felix Carrillo Fuentes Cardenas Guillen Beltran Leyva Ochoa Vasquez Rodriguez Orejuela Henao Montoya Varela Garcia Mancuso Gomez Castano Gil Maduro Moros Cabello Rondon Saab Moran Pulido Rojas Tareck Aissami Ortega Murillo Chavez Hernandez Torres Ramirez Flores Mendoza Salazar Aguilar Vargas Castillo".split(
    " ",
  );
const COMPANY_STEMS =
  "Al Noor;Al Rashid;Al Amal;Al Fajr;Al Baraka;Al Khaleej;Al Sharq;Al Hilal;Al Mustaqbal;Al Nahda;Al Tawfiq;Al Safa;Al Zahra;Kish;Bandar;Persian Gulf;Caspian;Tehran;Damascus;Aleppo;Basra;Mosul;Dubai;Sharjah;Ajman;Beirut;Kabul;Herat;Kandahar;Stroytrans;Neftegaz;Promtekh;Energoinvest;Sibtorg;Uralmash;Volgaprom;Baltsnab;Arktikgaz;Avtotekh;Rostek;Sovfracht;Transoil;Aviatorg;Tekhnopromexport;Kalashnikov;Rusal;Novatek;Almaz;Krasnodar;Tula;Shenzhen;Dalian;Ningbo;Dandong;Shanghai;Guangzhou;Xiamen;Zhuhai;Hong Kong;Macau;Pyongyang;Chongchongang;Korea Kwangson;Namchongang;Tanchon;Golden Star;Silver Sea;Ocean Pearl;Great Wall;Eastern Dragon;Blue Sky;Sunrise;Orient;Unity;Victory;Liberty;Zenith;Horizon;Atlas;Falcon;Phoenix;Titan;Panda;Lotus;Jade;Crescent;Oasis;Cedar;Olive".split(
    ";",
  );
const COMPANY_TRADES =
  "General Trading;Trading;Shipping;Petroleum;Oil and Gas;Exchange;Money Exchange;Logistics;Industrial;Engineering;Import Export;Electronics;Marine Services;Investment;Construction;Chemical;Metals;Aviation;Technology;Bank;Finance;Tankers;Maritime;Energy;Commodities;Mining;Textiles;Foodstuff;Pharmaceuticals;Tobacco".split(
    ";",
  );
const LIST_COMPANY_SUFFIXES = "LLC;FZE;FZCO;LTD;CO LTD;LIMITED;JSC;OOO;AO;PJSC;S.A.;COMPANY;CO;GROUP;HOLDING;INC".split(";");
const PAYEE_TRADES =
  "Consulting;Design;Studio;Bakery;Logistics;Transport;Construction;Software;Media;Marketing;Services;Trading;Engineering;Catering;Cleaning;Print;Photography;Architects;Dental;Legal;Accounting;Translations;Events;Motors;Garden;Electric;Plumbing;Import Export;Textiles;Foods".split(
    ";",
  );
const PAYEE_SUFFIXES = "GmbH;Ltd;Limited;SARL;SAS;BV;S.L.;Srl;Inc;LLC;AB;Sp. z o.o.;Lda;& Co;& Sons;Partners".split(";");

/** Spelling another source would use for the same name: what makes aliases and payees drift from the list. */
const RESPELLINGS: readonly [RegExp, string][] = [
  [/Muhammad/g, "Mohammed"],
  [/Mohammed/g, "Mohamed"],
  [/Husayn/g, "Hussein"],
  [/ou/g, "u"],
  [/\bal-/gi, "el-"],
  [/\bal-/gi, "Al "],
  [/ey\b/g, "ei"],
  [/iy/g, "i"],
  [/\bYe/g, "E"],
  [/kh/g, "h"],
  [/Kh/g, "H"],
  [/q/g, "k"],
  [/ee/g, "i"],
  [/a\b/g, "ah"],
];

function respell(name: string, random: Random): string {
  const start = Math.floor(random() * RESPELLINGS.length);
  for (let k = 0; k < RESPELLINGS.length; k++) {
    const [pattern, replacement] = RESPELLINGS[(start + k) % RESPELLINGS.length] as [RegExp, string];
    pattern.lastIndex = 0;
    if (pattern.test(name)) {
      pattern.lastIndex = 0;
      return name.replace(pattern, replacement);
    }
  }
  return name;
}

export interface Population {
  readonly payeeName: (random: Random) => string;
  readonly listParties: (count: number, random: Random) => ListedParty[];
}

export function population(seed = 42): Population {
  const random = prng(seed);
  const western = [en, de, fr, es, it, pl, nl, pt_PT, ro, sv, tr, vi].map((locale) => ({
    given: new Pool(genderless(locale.person?.first_name), random),
    family: new Pool(genderless(locale.person?.last_name), random),
  }));
  // Share of the Western payees from each locale: an EU/US payout business.
  const westernWeights = [30, 14, 11, 9, 9, 6, 4, 3, 3, 2, 5, 2];
  // Russian and Ukrainian names agree in gender (Ivanov/Ivanova, the patronymic too): one pool set per gender.
  const cyrillic = [ru, uk].flatMap((locale) =>
    (["male", "female"] as const).map((gender) => {
      const part = (d: unknown) => {
        const byGender = d as { generic?: string[]; female?: string[]; male?: string[] } | null | undefined;
        return byGender?.[gender] ?? byGender?.generic ?? [];
      };
      return {
        given: new Pool(part(locale.person?.first_name), random),
        family: new Pool(part(locale.person?.last_name), random),
        middle: new Pool(part(locale.person?.middle_name), random),
      };
    }),
  );
  const arabicGiven = new Pool(ARABIC_GIVEN, random);
  // The common family names first (the pool's head), then the place names, less often each.
  const arabicFamily = new Pool([...ARABIC_FAMILY, ...NISBA_PLACES.map((place) => `al-${place}i`)], random);
  const chineseGiven = new Pool(CHINESE_GIVEN, random);
  const chineseFamily = new Pool(CHINESE_FAMILY, random);
  const latinFamily = new Pool(LATIN_SDN_FAMILY, random);
  const companyStems = new Pool(COMPANY_STEMS, random, 0.5);
  const companyTrades = new Pool(COMPANY_TRADES, random, 0.7);
  const listSuffixes = new Pool(LIST_COMPANY_SUFFIXES, random, 0.7);
  const payeeTrades = new Pool(PAYEE_TRADES, random, 0.7);
  const payeeSuffixes = new Pool(PAYEE_SUFFIXES, random, 0.7);
  const weightedWestern = (r: Random) => {
    let target = r() * westernWeights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < western.length; i++) {
      target -= westernWeights[i] as number;
      if (target < 0) return western[i] as (typeof western)[number];
    }
    return western[0] as (typeof western)[number];
  };
  const latin = (value: string) => transliterate(value);

  function payeePerson(r: Random): string {
    const roll = r();
    if (roll < 0.89) {
      const pools = weightedWestern(r);
      return `${pools.given.draw(r)} ${pools.family.draw(r)}`;
    }
    if (roll < 0.94) {
      // As payees write them: given and family name, sometimes a second given name, the spelling their papers use.
      const name = `${arabicGiven.draw(r)}${r() < 0.3 ? ` ${arabicGiven.draw(r)}` : ""} ${arabicFamily.draw(r)}`;
      return r() < 0.4 ? respell(name, r) : name;
    }
    if (roll < 0.98) {
      const pools = cyrillic[(r() < 0.7 ? 0 : 2) + (r() < 0.5 ? 0 : 1)] as (typeof cyrillic)[number];
      const name = `${pools.given.draw(r)} ${pools.family.draw(r)}`;
      // Some payees type their name in Cyrillic; the matcher transliterates it.
      return r() < 0.3 ? name : latin(name);
    }
    return `${chineseFamily.draw(r)} ${chineseGiven.draw(r)}`;
  }

  function payeeName(r: Random): string {
    if (r() < 0.15) {
      const pools = weightedWestern(r);
      const owner = r() < 0.1 ? arabicFamily.draw(r).replace(/^al-/, "Al ") : pools.family.draw(r);
      return r() < 0.3
        ? `${owner} & ${pools.family.draw(r)} ${payeeSuffixes.draw(r)}`
        : `${owner} ${payeeTrades.draw(r)} ${payeeSuffixes.draw(r)}`;
    }
    return payeePerson(r);
  }

  function listIndividual(r: Random): { last: string; given: string } {
    const roll = r();
    if (roll < 0.45) {
      const given = `${arabicGiven.draw(r)}${r() < 0.6 ? ` ${arabicGiven.draw(r)}` : ""}`;
      return { last: arabicFamily.draw(r), given };
    }
    if (roll < 0.7) {
      // Mostly men, as on the SDN list.
      const pools = cyrillic[(r() < 0.8 ? 0 : 2) + (r() < 0.85 ? 0 : 1)] as (typeof cyrillic)[number];
      const given = latin(`${pools.given.draw(r)}${pools.middle.size > 0 ? ` ${pools.middle.draw(r)}` : ""}`);
      return { last: latin(pools.family.draw(r)), given };
    }
    if (roll < 0.85) return { last: chineseFamily.draw(r), given: chineseGiven.draw(r) };
    const spanish = western[3] as (typeof western)[number];
    return { last: `${latinFamily.draw(r)}${r() < 0.5 ? ` ${latinFamily.draw(r)}` : ""}`, given: spanish.given.draw(r) };
  }

  function listParties(count: number, r: Random): ListedParty[] {
    return Array.from({ length: count }, (_, i) => {
      const ref = String(10_000 + i);
      if (r() < 0.45) {
        const name = `${companyStems.draw(r)} ${companyTrades.draw(r)} ${listSuffixes.draw(r)}`.toUpperCase();
        const alias = r() < 0.3 ? respell(name.toLowerCase(), r).toUpperCase() : name;
        const aliases = alias === name ? [] : [alias];
        return { ref, kind: "entity" as const, name, aliases };
      }
      const { last, given } = listIndividual(r);
      const aliasCount = 1 + Math.floor(r() * 3);
      const aliases = [...new Set(Array.from({ length: aliasCount }, () => respell(`${given} ${last}`, r)))];
      return { ref, kind: "individual" as const, name: `${last.toUpperCase()}, ${given}`, aliases };
    });
  }

  return { payeeName, listParties };
}
