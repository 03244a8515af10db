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

/// RFC 3339 text: `2024-01-02T03:04:05Z`, `2024-01-02`, `03:04:05.25`.
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
