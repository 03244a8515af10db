use std::fmt;

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Year, 0..=9999.
    pub year: u16,
    /// Month, 1..=12.
    pub month: u8,
    /// Day of the month, 1..=31.
    pub day: u8,
}

/// A time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    /// Hour, 0..=23.
    pub hour: u8,
    /// Minute, 0..=59.
    pub minute: u8,
    /// Second, 0..=60 (leap second allowed).
    pub second: u8,
    /// Fraction of the second in nanoseconds.
    pub nanosecond: u32,
}

/// A UTC offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Offset {
    /// `Z`: UTC.
    Z,
    /// `+hh:mm` / `-hh:mm`, as signed minutes east of UTC.
    Minutes(i16),
}

/// A date, a time or both, with an optional offset: covers TOML's four kinds
/// (offset date-time, local date-time, local date, local time) and plist dates
/// (always a UTC date-time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Datetime {
    /// The date part, if any.
    pub date: Option<Date>,
    /// The time part, if any.
    pub time: Option<Time>,
    /// The offset; only meaningful when both date and time are present.
    pub offset: Option<Offset>,
}

impl Date {
    /// Days from the Unix epoch to this date, in the proleptic Gregorian calendar (Howard
    /// Hinnant's algorithm); negative before it.
    pub fn days_since_unix_epoch(&self) -> i64 {
        let (month, day) = (i64::from(self.month), i64::from(self.day));
        let year = i64::from(self.year) - i64::from(month <= 2);
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }

    /// The date `days` after the Unix epoch (before it when negative), if its year lies in
    /// 0 ..= 9999.
    pub fn from_days_since_unix_epoch(days: i64) -> Option<Date> {
        let z = days.checked_add(719_468)?;
        let era = z.div_euclid(146_097);
        let day_of_era = z - era * 146_097;
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let mp = (5 * day_of_year + 2) / 153;
        let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        Some(Date {
            year: u16::try_from(year).ok().filter(|y| *y <= 9999)?,
            month,
            day,
        })
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}:{:02}", self.hour, self.minute, self.second)?;
        if self.nanosecond != 0 {
            let mut digits = format!("{:09}", self.nanosecond);
            while digits.ends_with('0') {
                digits.pop();
            }
            write!(f, ".{digits}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Offset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Offset::Z => f.write_str("Z"),
            Offset::Minutes(m) => {
                let sign = if m < 0 { '-' } else { '+' };
                let m = m.unsigned_abs();
                write!(f, "{sign}{:02}:{:02}", m / 60, m % 60)
            }
        }
    }
}

/// RFC 3339 text: `YYYY-MM-DDTHH:MM:SSZ`, `YYYY-MM-DD`, `HH:MM:SS.frac`.
impl fmt::Display for Datetime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(date) = &self.date {
            write!(f, "{date}")?;
            if self.time.is_some() {
                f.write_str("T")?;
            }
        }
        if let Some(time) = &self.time {
            write!(f, "{time}")?;
        }
        if let Some(offset) = &self.offset {
            write!(f, "{offset}")?;
        }
        Ok(())
    }
}

/// Why a text is not a datetime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatetimeParseError;

impl fmt::Display for DatetimeParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid RFC 3339 date or time")
    }
}

impl std::error::Error for DatetimeParseError {}

impl Datetime {
    // TOML 1.0's ABNF, after RFC 3339:
    // date-time        = offset-date-time / local-date-time / local-date / local-time
    // offset-date-time = full-date time-delim full-time
    // local-date-time  = full-date time-delim partial-time
    // time-delim       = "T" / %x20 ; T, t, or space
    /// Reads the longest RFC 3339 date, time or date-time at the start of `text` and
    /// returns it with the number of bytes it took. Accepts TOML's spellings: a `T`,
    /// `t` or space between date and time, `Z` or `z`, a local date-time without offset,
    /// a date alone and a time alone; seconds are required, fractions keep nanoseconds
    /// (digits beyond the ninth are read and dropped). Every field is range-checked,
    /// days against their month in their year. A space separator is taken only when a
    /// time follows it.
    pub fn parse_prefix(text: &[u8]) -> Option<(Datetime, usize)> {
        if let Some(date) = parse_date(text) {
            let mut datetime = Datetime {
                date: Some(date),
                time: None,
                offset: None,
            };
            let mut at = 10;
            if let (Some(b'T' | b't' | b' '), Some((time, used))) =
                (text.get(10), text.get(11..).and_then(parse_time))
            {
                datetime.time = Some(time);
                at = 11 + used;
                if let Some((offset, used)) = parse_offset(&text[at..]) {
                    datetime.offset = Some(offset);
                    at += used;
                }
            } else if matches!(text.get(10), Some(b'T' | b't')) {
                return None;
            }
            return Some((datetime, at));
        }
        let (time, used) = parse_time(text)?;
        Some((
            Datetime {
                date: None,
                time: Some(time),
                offset: None,
            },
            used,
        ))
    }
}

/// Parses a whole RFC 3339 text (see [`Datetime::parse_prefix`] for what is accepted).
impl std::str::FromStr for Datetime {
    type Err = DatetimeParseError;

    fn from_str(text: &str) -> Result<Self, DatetimeParseError> {
        match Datetime::parse_prefix(text.as_bytes()) {
            Some((datetime, used)) if used == text.len() => Ok(datetime),
            _ => Err(DatetimeParseError),
        }
    }
}

fn digits<const N: usize>(text: &[u8], at: usize) -> Option<u32> {
    let bytes = text.get(at..at + N)?;
    bytes.iter().try_fold(0u32, |acc, &b| {
        b.is_ascii_digit().then(|| acc * 10 + u32::from(b - b'0'))
    })
}

// full-date = date-fullyear "-" date-month "-" date-mday
fn parse_date(text: &[u8]) -> Option<Date> {
    let year = digits::<4>(text, 0)?;
    let month = digits::<2>(text, 5)?;
    let day = digits::<2>(text, 8)?;
    if text[4] != b'-' || text[7] != b'-' || !(1..=12).contains(&month) {
        return None;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1..=days_in_month).contains(&day) {
        return None;
    }
    Some(Date {
        year: year as u16,
        month: month as u8,
        day: day as u8,
    })
}

// partial-time = time-hour ":" time-minute ":" time-second [ time-secfrac ]
// time-secfrac = "." 1*DIGIT
fn parse_time(text: &[u8]) -> Option<(Time, usize)> {
    let hour = digits::<2>(text, 0)?;
    let minute = digits::<2>(text, 3)?;
    let second = digits::<2>(text, 6)?;
    if text[2] != b':' || text[5] != b':' || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut at = 8;
    let mut nanosecond = 0u32;
    if text.get(8) == Some(&b'.') {
        let fraction = &text[9..];
        let count = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
        if count == 0 {
            return None;
        }
        for (i, &b) in fraction[..count.min(9)].iter().enumerate() {
            nanosecond += u32::from(b - b'0') * 10u32.pow(8 - i as u32);
        }
        at = 9 + count;
    }
    let time = Time {
        hour: hour as u8,
        minute: minute as u8,
        second: second as u8,
        nanosecond,
    };
    Some((time, at))
}

// time-offset    = "Z" / time-numoffset
// time-numoffset = ( "+" / "-" ) time-hour ":" time-minute
fn parse_offset(text: &[u8]) -> Option<(Offset, usize)> {
    match text.first()? {
        b'Z' | b'z' => Some((Offset::Z, 1)),
        sign @ (b'+' | b'-') => {
            let hours = digits::<2>(text, 1)?;
            let minutes = digits::<2>(text, 4)?;
            if text[3] != b':' || hours > 23 || minutes > 59 {
                return None;
            }
            let total = (hours * 60 + minutes) as i16;
            Some((
                Offset::Minutes(if *sign == b'-' { -total } else { total }),
                6,
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Days and dates convert both ways over the whole range of years, and known days
    /// land where they should.
    #[test]
    fn days_since_the_unix_epoch_round_trip() {
        let first = Date {
            year: 0,
            month: 1,
            day: 1,
        }
        .days_since_unix_epoch();
        let last = Date {
            year: 9999,
            month: 12,
            day: 31,
        }
        .days_since_unix_epoch();
        assert_eq!(first * 86_400, -62_167_219_200);
        assert_eq!(last * 86_400, 253_402_214_400);
        for days in (first..=last).step_by(97) {
            let date = Date::from_days_since_unix_epoch(days).unwrap();
            assert_eq!(date.days_since_unix_epoch(), days);
        }
        assert_eq!(Date::from_days_since_unix_epoch(first - 1), None);
        assert_eq!(Date::from_days_since_unix_epoch(last + 1), None);
        let apple = Date {
            year: 2001,
            month: 1,
            day: 1,
        };
        assert_eq!(apple.days_since_unix_epoch() * 86_400, 978_307_200);
        assert_eq!(
            Date::from_days_since_unix_epoch(10).unwrap().to_string(),
            "1970-01-11"
        );
    }

    #[test]
    fn displays_rfc3339() {
        let dt = Datetime {
            date: Some(Date {
                year: 2024,
                month: 1,
                day: 2,
            }),
            time: Some(Time {
                hour: 3,
                minute: 4,
                second: 5,
                nanosecond: 250_000_000,
            }),
            offset: Some(Offset::Minutes(-90)),
        };
        assert_eq!(dt.to_string(), "2024-01-02T03:04:05.25-01:30");
        let date_only = Datetime {
            time: None,
            offset: None,
            ..dt
        };
        assert_eq!(date_only.to_string(), "2024-01-02");
        let utc = Datetime {
            offset: Some(Offset::Z),
            ..dt
        };
        assert!(utc.to_string().ends_with("05.25Z"));
    }

    #[test]
    fn parses_every_kind_and_rejects_out_of_range_fields() {
        let parse = |s: &str| s.parse::<Datetime>().map(|d| d.to_string());
        assert_eq!(
            parse("1979-05-27T07:32:00Z").unwrap(),
            "1979-05-27T07:32:00Z"
        );
        assert_eq!(
            parse("1979-05-27 07:32:00.5-07:00").unwrap(),
            "1979-05-27T07:32:00.5-07:00"
        );
        assert_eq!(
            parse("1979-05-27t07:32:00z").unwrap(),
            "1979-05-27T07:32:00Z"
        );
        assert_eq!(parse("1979-05-27T07:32:00").unwrap(), "1979-05-27T07:32:00");
        assert_eq!(parse("1979-05-27").unwrap(), "1979-05-27");
        assert_eq!(
            parse("00:32:00.999999999999").unwrap(),
            "00:32:00.999999999"
        );
        assert_eq!(parse("2000-02-29").unwrap(), "2000-02-29");
        for bad in [
            "1900-02-29",
            "2023-04-31",
            "2023-13-01",
            "2023-00-10",
            "24:00:00",
            "12:60:00",
            "12:00:61",
            "1979-05-27T",
            "1979-05-27T07:32",
            "07:32:00.",
            "1979-05-27T07:32:00+24:00",
            "1979-5-27",
            "1979-05-27 ",
            "x",
        ] {
            assert!(parse(bad).is_err(), "{bad} was accepted");
        }
        // A space not followed by a time ends the date.
        assert_eq!(
            Datetime::parse_prefix(b"1979-05-27 # c").map(|(_, n)| n),
            Some(10)
        );
    }
}
