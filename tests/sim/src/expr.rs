//! DynamoDB's expressions, parsed and evaluated: conditions (and key conditions, which are
//! conditions on the key attributes), update expressions and projections, their `#name` and
//! `:value` placeholders resolved from the request, each placeholder required to be used.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::error::DynamoError;
use crate::value::{Item, compare, same, single, value_size};

/// One step of a document path.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

/// A document path: an attribute and the steps into it.
pub(crate) type Path = Vec<Step>;

/// A value in an expression.
#[derive(Debug, Clone)]
pub(crate) enum Operand {
    Path(Path),
    Value(Value),
    Size(Path),
    IfNotExists(Path, Box<Operand>),
    ListAppend(Box<Operand>, Box<Operand>),
    Plus(Box<Operand>, Box<Operand>),
    Minus(Box<Operand>, Box<Operand>),
}

/// A comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A condition.
#[derive(Debug, Clone)]
pub(crate) enum Cond {
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
    Compare(Operand, Cmp, Operand),
    Between(Operand, Operand, Operand),
    In(Operand, Vec<Operand>),
    Exists(Path),
    NotExists(Path),
    BeginsWith(Operand, Operand),
    Contains(Operand, Operand),
    AttributeType(Path, Operand),
}

/// An update expression's actions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Update {
    pub(crate) set: Vec<(Path, Operand)>,
    pub(crate) remove: Vec<Path>,
    pub(crate) add: Vec<(Path, Operand)>,
    pub(crate) delete: Vec<(Path, Operand)>,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Name(String),
    Value(String),
    Number(usize),
    Sym(&'static str),
}

/// The placeholders of a request, and those its expressions used.
pub(crate) struct Placeholders<'a> {
    names: Option<&'a serde_json::Map<String, Value>>,
    values: Option<&'a serde_json::Map<String, Value>>,
    used_names: BTreeSet<String>,
    used_values: BTreeSet<String>,
}

impl<'a> Placeholders<'a> {
    /// The `ExpressionAttributeNames` and `ExpressionAttributeValues` of a request.
    pub(crate) fn of(request: &'a Value) -> Self {
        Placeholders {
            names: request.get("ExpressionAttributeNames").and_then(Value::as_object),
            values: request.get("ExpressionAttributeValues").and_then(Value::as_object),
            used_names: BTreeSet::new(),
            used_values: BTreeSet::new(),
        }
    }

    /// An error for a placeholder given and used by no expression, as DynamoDB refuses it.
    pub(crate) fn check_all_used(&self) -> Result<(), DynamoError> {
        let unused = |given: Option<&serde_json::Map<String, Value>>, used: &BTreeSet<String>| -> Vec<String> {
            given.into_iter().flat_map(|m| m.keys()).filter(|k| !used.contains(*k)).cloned().collect()
        };
        let names = unused(self.names, &self.used_names);
        if !names.is_empty() {
            return Err(DynamoError::validation(format!(
                "Value provided in ExpressionAttributeNames unused in expressions: keys: {{{}}}",
                names.join(", ")
            )));
        }
        let values = unused(self.values, &self.used_values);
        if !values.is_empty() {
            return Err(DynamoError::validation(format!(
                "Value provided in ExpressionAttributeValues unused in expressions: keys: {{{}}}",
                values.join(", ")
            )));
        }
        Ok(())
    }

    fn name(&mut self, placeholder: &str) -> Result<String, DynamoError> {
        let found = self.names.and_then(|m| m.get(placeholder)).and_then(Value::as_str);
        let Some(name) = found else {
            return Err(DynamoError::validation(format!(
                "Value provided in ExpressionAttributeNames unused in expressions: An expression attribute name used in the document path is not defined; attribute name: {placeholder}"
            )));
        };
        self.used_names.insert(placeholder.to_owned());
        Ok(name.to_owned())
    }

    fn value(&mut self, placeholder: &str) -> Result<Value, DynamoError> {
        let Some(value) = self.values.and_then(|m| m.get(placeholder)) else {
            return Err(DynamoError::validation(format!(
                "Invalid expression: An expression attribute value used in expression is not defined; attribute value: {placeholder}"
            )));
        };
        self.used_values.insert(placeholder.to_owned());
        Ok(value.clone())
    }
}

fn tokens(text: &str) -> Result<Vec<Token>, DynamoError> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let take_word = |i: &mut usize| {
            while *i < chars.len() && word_char(chars[*i]) {
                *i += 1;
            }
        };
        match c {
            '#' | ':' => {
                i += 1;
                take_word(&mut i);
                let word: String = chars[start..i].iter().collect();
                if word.len() == 1 {
                    return Err(syntax(text, &word));
                }
                out.push(if c == '#' { Token::Name(word) } else { Token::Value(word) });
            }
            c if c.is_ascii_digit() => {
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let digits: String = chars[start..i].iter().collect();
                out.push(Token::Number(digits.parse().map_err(|_| syntax(text, &digits))?));
            }
            c if word_char(c) => {
                take_word(&mut i);
                out.push(Token::Word(chars[start..i].iter().collect()));
            }
            _ => {
                let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
                let sym = match two.as_str() {
                    "<>" => Some("<>"),
                    "<=" => Some("<="),
                    ">=" => Some(">="),
                    _ => None,
                };
                if let Some(sym) = sym {
                    out.push(Token::Sym(sym));
                    i += 2;
                    continue;
                }
                let sym = match c {
                    '=' => "=",
                    '<' => "<",
                    '>' => ">",
                    '(' => "(",
                    ')' => ")",
                    ',' => ",",
                    '.' => ".",
                    '[' => "[",
                    ']' => "]",
                    '+' => "+",
                    '-' => "-",
                    _ => return Err(syntax(text, &c.to_string())),
                };
                out.push(Token::Sym(sym));
                i += 1;
            }
        }
    }
    Ok(out)
}

fn syntax(text: &str, near: &str) -> DynamoError {
    DynamoError::validation(format!("Invalid expression: Syntax error; token: \"{near}\", near: \"{text}\""))
}

/// Whether DynamoDB reserves `word` (any case): then it can only be named through a `#name`.
fn reserved(word: &str) -> bool {
    static WORDS: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    WORDS
        .get_or_init(|| {
            include_str!("reserved.txt")
                .lines()
                .filter(|l| !l.starts_with('#') && !l.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .contains(&word.to_ascii_uppercase())
}

struct Parser<'t, 'p, 'a> {
    text: &'t str,
    tokens: Vec<Token>,
    at: usize,
    places: &'p mut Placeholders<'a>,
}

impl Parser<'_, '_, '_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.at).cloned();
        self.at += 1;
        t
    }

    fn error(&self) -> DynamoError {
        let near = match self.peek() {
            Some(Token::Word(w) | Token::Name(w) | Token::Value(w)) => w.clone(),
            Some(Token::Number(n)) => n.to_string(),
            Some(Token::Sym(s)) => (*s).to_owned(),
            None => "<EOF>".to_owned(),
        };
        syntax(self.text, &near)
    }

    fn keyword(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Token::Word(w)) if w.eq_ignore_ascii_case(word))
    }

    fn sym(&self, sym: &str) -> bool {
        matches!(self.peek(), Some(Token::Sym(s)) if *s == sym)
    }

    fn expect_sym(&mut self, sym: &str) -> Result<(), DynamoError> {
        if self.sym(sym) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error())
        }
    }

    fn done(&self) -> Result<(), DynamoError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error()),
        }
    }

    fn path(&mut self) -> Result<Path, DynamoError> {
        let mut path = vec![Step::Key(self.path_name()?)];
        loop {
            if self.sym(".") {
                self.at += 1;
                path.push(Step::Key(self.path_name()?));
            } else if self.sym("[") {
                self.at += 1;
                let Some(Token::Number(n)) = self.next() else { return Err(self.error()) };
                self.expect_sym("]")?;
                path.push(Step::Index(n));
            } else {
                return Ok(path);
            }
        }
    }

    fn path_name(&mut self) -> Result<String, DynamoError> {
        match self.next() {
            Some(Token::Name(p)) => self.places.name(&p),
            Some(Token::Word(w)) => {
                if reserved(&w) {
                    return Err(DynamoError::validation(format!(
                        "Invalid expression: Attribute name is a reserved keyword; reserved keyword: {w}"
                    )));
                }
                Ok(w)
            }
            _ => {
                self.at -= 1;
                Err(self.error())
            }
        }
    }

    fn operand(&mut self) -> Result<Operand, DynamoError> {
        let first = self.single_operand()?;
        if self.sym("+") || self.sym("-") {
            let plus = self.sym("+");
            self.at += 1;
            let second = self.single_operand()?;
            return Ok(match plus {
                true => Operand::Plus(Box::new(first), Box::new(second)),
                false => Operand::Minus(Box::new(first), Box::new(second)),
            });
        }
        Ok(first)
    }

    fn single_operand(&mut self) -> Result<Operand, DynamoError> {
        match self.peek().cloned() {
            Some(Token::Value(v)) => {
                self.at += 1;
                Ok(Operand::Value(self.places.value(&v)?))
            }
            Some(Token::Word(w)) if self.tokens.get(self.at + 1) == Some(&Token::Sym("(")) => {
                self.at += 2;
                let f = w.to_ascii_lowercase();
                let operand = match f.as_str() {
                    "size" => Operand::Size(self.path()?),
                    "if_not_exists" => {
                        let path = self.path()?;
                        self.expect_sym(",")?;
                        Operand::IfNotExists(path, Box::new(self.operand()?))
                    }
                    "list_append" => {
                        let a = self.operand()?;
                        self.expect_sym(",")?;
                        Operand::ListAppend(Box::new(a), Box::new(self.operand()?))
                    }
                    _ => {
                        return Err(DynamoError::validation(format!(
                            "Invalid expression: Invalid function name; function: {w}"
                        )));
                    }
                };
                self.expect_sym(")")?;
                Ok(operand)
            }
            _ => Ok(Operand::Path(self.path()?)),
        }
    }

    fn condition(&mut self) -> Result<Cond, DynamoError> {
        let mut left = self.conjunction()?;
        while self.keyword("OR") {
            self.at += 1;
            left = Cond::Or(Box::new(left), Box::new(self.conjunction()?));
        }
        Ok(left)
    }

    fn conjunction(&mut self) -> Result<Cond, DynamoError> {
        let mut left = self.negation()?;
        while self.keyword("AND") {
            self.at += 1;
            left = Cond::And(Box::new(left), Box::new(self.negation()?));
        }
        Ok(left)
    }

    fn negation(&mut self) -> Result<Cond, DynamoError> {
        if self.keyword("NOT") {
            self.at += 1;
            return Ok(Cond::Not(Box::new(self.negation()?)));
        }
        if self.sym("(") {
            self.at += 1;
            let inner = self.condition()?;
            self.expect_sym(")")?;
            return Ok(inner);
        }
        self.predicate()
    }

    fn predicate(&mut self) -> Result<Cond, DynamoError> {
        if let (Some(Token::Word(w)), Some(Token::Sym("("))) = (self.peek().cloned(), self.tokens.get(self.at + 1)) {
            let f = w.to_ascii_lowercase();
            let function = matches!(
                f.as_str(),
                "attribute_exists" | "attribute_not_exists" | "begins_with" | "contains" | "attribute_type"
            );
            if function {
                self.at += 2;
                let cond = match f.as_str() {
                    "attribute_exists" => Cond::Exists(self.path()?),
                    "attribute_not_exists" => Cond::NotExists(self.path()?),
                    "attribute_type" => {
                        let path = self.path()?;
                        self.expect_sym(",")?;
                        Cond::AttributeType(path, self.operand()?)
                    }
                    _ => {
                        let a = self.operand()?;
                        self.expect_sym(",")?;
                        let b = self.operand()?;
                        if f == "begins_with" { Cond::BeginsWith(a, b) } else { Cond::Contains(a, b) }
                    }
                };
                self.expect_sym(")")?;
                return Ok(cond);
            }
        }
        let left = self.operand()?;
        if self.keyword("BETWEEN") {
            self.at += 1;
            let low = self.operand()?;
            if !self.keyword("AND") {
                return Err(self.error());
            }
            self.at += 1;
            return Ok(Cond::Between(left, low, self.operand()?));
        }
        if self.keyword("IN") {
            self.at += 1;
            self.expect_sym("(")?;
            let mut list = vec![self.operand()?];
            while self.sym(",") {
                self.at += 1;
                list.push(self.operand()?);
            }
            self.expect_sym(")")?;
            return Ok(Cond::In(left, list));
        }
        let cmp = match self.next() {
            Some(Token::Sym("=")) => Cmp::Eq,
            Some(Token::Sym("<>")) => Cmp::Ne,
            Some(Token::Sym("<")) => Cmp::Lt,
            Some(Token::Sym("<=")) => Cmp::Le,
            Some(Token::Sym(">")) => Cmp::Gt,
            Some(Token::Sym(">=")) => Cmp::Ge,
            _ => {
                self.at -= 1;
                return Err(self.error());
            }
        };
        Ok(Cond::Compare(left, cmp, self.operand()?))
    }

    fn update(&mut self) -> Result<Update, DynamoError> {
        let mut update = Update::default();
        let mut seen = BTreeSet::new();
        while self.peek().is_some() {
            let Some(Token::Word(clause)) = self.next() else {
                self.at -= 1;
                return Err(self.error());
            };
            let clause = clause.to_ascii_uppercase();
            if !seen.insert(clause.clone()) {
                return Err(DynamoError::validation(format!(
                    "Invalid UpdateExpression: The \"{clause}\" section can only be used once in an update expression;"
                )));
            }
            loop {
                match clause.as_str() {
                    "SET" => {
                        let path = self.path()?;
                        self.expect_sym("=")?;
                        update.set.push((path, self.operand()?));
                    }
                    "REMOVE" => update.remove.push(self.path()?),
                    "ADD" => {
                        let path = self.path()?;
                        update.add.push((path, self.operand()?));
                    }
                    "DELETE" => {
                        let path = self.path()?;
                        update.delete.push((path, self.operand()?));
                    }
                    _ => {
                        self.at -= 1;
                        return Err(self.error());
                    }
                }
                if !self.sym(",") {
                    break;
                }
                self.at += 1;
            }
        }
        Ok(update)
    }
}

fn parser<'t, 'p, 'a>(text: &'t str, places: &'p mut Placeholders<'a>) -> Result<Parser<'t, 'p, 'a>, DynamoError> {
    if text.trim().is_empty() {
        return Err(DynamoError::validation("Invalid expression: The expression can not be empty;".to_owned()));
    }
    Ok(Parser { text, tokens: tokens(text)?, at: 0, places })
}

/// A condition expression's text parsed.
pub(crate) fn parse_condition(text: &str, places: &mut Placeholders<'_>) -> Result<Cond, DynamoError> {
    let mut p = parser(text, places)?;
    let cond = p.condition()?;
    p.done()?;
    Ok(cond)
}

/// An update expression's text parsed.
pub(crate) fn parse_update(text: &str, places: &mut Placeholders<'_>) -> Result<Update, DynamoError> {
    let mut p = parser(text, places)?;
    let update = p.update()?;
    p.done()?;
    Ok(update)
}

/// A projection expression's text parsed: its paths.
pub(crate) fn parse_projection(text: &str, places: &mut Placeholders<'_>) -> Result<Vec<Path>, DynamoError> {
    let mut p = parser(text, places)?;
    let mut paths = vec![p.path()?];
    while p.sym(",") {
        p.at += 1;
        paths.push(p.path()?);
    }
    p.done()?;
    Ok(paths)
}

/// The value at `path` in `item`.
pub(crate) fn get<'i>(item: &'i Item, path: &Path) -> Option<&'i Value> {
    let Some(Step::Key(first)) = path.first() else { return None };
    let mut value = item.get(first)?;
    for step in &path[1..] {
        let (kind, inner) = single(value)?;
        value = match (kind, step) {
            ("M", Step::Key(k)) => inner.as_object()?.get(k)?,
            ("L", Step::Index(i)) => inner.as_array()?.get(*i)?,
            _ => return None,
        };
    }
    Some(value)
}

fn operand_value(item: &Item, operand: &Operand) -> Result<Option<Value>, DynamoError> {
    Ok(match operand {
        Operand::Path(path) => get(item, path).cloned(),
        Operand::Value(v) => Some(v.clone()),
        Operand::Size(path) => get(item, path).and_then(|v| {
            let (kind, inner) = single(v)?;
            let n = match kind {
                "S" => inner.as_str()?.len(),
                "B" => value_size(v),
                "SS" | "NS" | "BS" | "L" => inner.as_array()?.len(),
                "M" => inner.as_object()?.len(),
                _ => return None,
            };
            Some(json!({ "N": n.to_string() }))
        }),
        Operand::IfNotExists(path, default) => match get(item, path) {
            Some(v) => Some(v.clone()),
            None => operand_value(item, default)?,
        },
        Operand::ListAppend(a, b) => {
            let (a, b) = (operand_value(item, a)?, operand_value(item, b)?);
            let list = |v: &Option<Value>| v.as_ref().and_then(|v| v.get("L")).and_then(Value::as_array).cloned();
            match (list(&a), list(&b)) {
                (Some(mut a), Some(b)) => {
                    a.extend(b);
                    Some(json!({ "L": a }))
                }
                _ => {
                    return Err(DynamoError::validation(
                        "An operand in the update expression has an incorrect data type".to_owned(),
                    ));
                }
            }
        }
        Operand::Plus(a, b) | Operand::Minus(a, b) => {
            let (a, b) = (operand_value(item, a)?, operand_value(item, b)?);
            let number =
                |v: &Option<Value>| v.as_ref().and_then(|v| v.get("N")).and_then(Value::as_str).map(str::to_owned);
            let (Some(a), Some(b)) = (number(&a), number(&b)) else {
                return Err(DynamoError::validation(
                    "An operand in the update expression has an incorrect data type".to_owned(),
                ));
            };
            let minus = matches!(operand, Operand::Minus(..));
            Some(json!({ "N": arithmetic(&a, &b, minus) }))
        }
    })
}

/// `a + b` (or `a - b`) of two numbers' texts: exact for integers, by f64 otherwise.
pub(crate) fn arithmetic(a: &str, b: &str, minus: bool) -> String {
    if let (Ok(x), Ok(y)) = (a.parse::<i128>(), b.parse::<i128>()) {
        return if minus { x - y } else { x + y }.to_string();
    }
    let (x, y) = (a.parse::<f64>().unwrap_or(0.0), b.parse::<f64>().unwrap_or(0.0));
    let r = if minus { x - y } else { x + y };
    if r.fract() == 0.0 && r.abs() < 1e15 { format!("{}", r as i64) } else { r.to_string() }
}

/// Whether `cond` holds for `item` (an absent item is an empty one).
pub(crate) fn holds(cond: &Cond, item: &Item) -> Result<bool, DynamoError> {
    Ok(match cond {
        Cond::And(a, b) => holds(a, item)? && holds(b, item)?,
        Cond::Or(a, b) => holds(a, item)? || holds(b, item)?,
        Cond::Not(a) => !holds(a, item)?,
        Cond::Exists(path) => get(item, path).is_some(),
        Cond::NotExists(path) => get(item, path).is_none(),
        Cond::Compare(a, cmp, b) => {
            let (Some(a), Some(b)) = (operand_value(item, a)?, operand_value(item, b)?) else { return Ok(false) };
            match cmp {
                Cmp::Eq => same(&a, &b),
                Cmp::Ne => !same(&a, &b),
                _ => match compare(&a, &b) {
                    Some(order) => match cmp {
                        Cmp::Lt => order == Ordering::Less,
                        Cmp::Le => order != Ordering::Greater,
                        Cmp::Gt => order == Ordering::Greater,
                        _ => order != Ordering::Less,
                    },
                    None => false,
                },
            }
        }
        Cond::Between(v, low, high) => {
            let (Some(v), Some(low), Some(high)) =
                (operand_value(item, v)?, operand_value(item, low)?, operand_value(item, high)?)
            else {
                return Ok(false);
            };
            if compare(&low, &high) == Some(Ordering::Greater) {
                return Err(DynamoError::validation(
                    "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound".to_owned(),
                ));
            }
            compare(&v, &low).is_some_and(|o| o != Ordering::Less)
                && compare(&v, &high).is_some_and(|o| o != Ordering::Greater)
        }
        Cond::In(v, list) => {
            let Some(v) = operand_value(item, v)? else { return Ok(false) };
            let mut found = false;
            for candidate in list {
                if operand_value(item, candidate)?.is_some_and(|c| same(&v, &c)) {
                    found = true;
                }
            }
            found
        }
        Cond::BeginsWith(a, b) => {
            let (Some(a), Some(b)) = (operand_value(item, a)?, operand_value(item, b)?) else { return Ok(false) };
            match (a.get("S").and_then(Value::as_str), b.get("S").and_then(Value::as_str)) {
                (Some(a), Some(b)) => a.starts_with(b),
                _ => false,
            }
        }
        Cond::Contains(a, b) => {
            let (Some(a), Some(b)) = (operand_value(item, a)?, operand_value(item, b)?) else { return Ok(false) };
            match (single(&a), single(&b)) {
                (Some(("S", x)), Some(("S", y))) => x.as_str().zip(y.as_str()).is_some_and(|(x, y)| x.contains(y)),
                (Some(("SS" | "NS" | "BS", set)), Some((_, y))) => set.as_array().is_some_and(|s| s.contains(y)),
                (Some(("L", list)), _) => list.as_array().is_some_and(|l| l.iter().any(|x| same(x, &b))),
                _ => false,
            }
        }
        Cond::AttributeType(path, t) => {
            let want = operand_value(item, t)?.and_then(|t| t.get("S").and_then(Value::as_str).map(str::to_owned));
            get(item, path).and_then(single).is_some_and(|(kind, _)| want.as_deref() == Some(kind))
        }
    })
}

/// The attribute names a condition reads (the first step of each path).
pub(crate) fn attributes(cond: &Cond, out: &mut BTreeSet<String>) {
    let operand = |o: &Operand, out: &mut BTreeSet<String>| {
        if let Operand::Path(p) | Operand::Size(p) = o
            && let Some(Step::Key(k)) = p.first()
        {
            out.insert(k.clone());
        }
    };
    match cond {
        Cond::And(a, b) | Cond::Or(a, b) => {
            attributes(a, out);
            attributes(b, out);
        }
        Cond::Not(a) => attributes(a, out),
        Cond::Compare(a, _, b) | Cond::BeginsWith(a, b) | Cond::Contains(a, b) => {
            operand(a, out);
            operand(b, out);
        }
        Cond::Between(a, b, c) => {
            operand(a, out);
            operand(b, out);
            operand(c, out);
        }
        Cond::In(a, list) => {
            operand(a, out);
            list.iter().for_each(|o| operand(o, out));
        }
        Cond::Exists(p) | Cond::NotExists(p) | Cond::AttributeType(p, _) => {
            if let Some(Step::Key(k)) = p.first() {
                out.insert(k.clone());
            }
        }
    }
}

/// The value the equality `name = :v` of a key condition gives `name`, when the condition has one
/// at its top level (alone, or in an AND).
pub(crate) fn equality_of(cond: &Cond, name: &str) -> Option<Value> {
    match cond {
        Cond::And(a, b) => equality_of(a, name).or_else(|| equality_of(b, name)),
        Cond::Compare(Operand::Path(p), Cmp::Eq, Operand::Value(v)) if p == &vec![Step::Key(name.to_owned())] => {
            Some(v.clone())
        }
        _ => None,
    }
}

/// `item` with `update` applied.
pub(crate) fn apply(update: &Update, item: &Item) -> Result<Item, DynamoError> {
    let mut out = item.clone();
    for (path, operand) in &update.set {
        let value = operand_value(item, operand)?.ok_or_else(|| {
            DynamoError::validation(
                "The provided expression refers to an attribute that does not exist in the item".to_owned(),
            )
        })?;
        put(&mut out, path, Some(value))?;
    }
    for path in &update.remove {
        put(&mut out, path, None)?;
    }
    for (path, operand) in &update.add {
        let value = operand_value(item, operand)?.unwrap_or(Value::Null);
        let now = get(item, path).cloned();
        let added = match (now.as_ref().and_then(single), single(&value)) {
            (None, Some(_)) => value.clone(),
            (Some(("N", a)), Some(("N", b))) => {
                json!({ "N": arithmetic(a.as_str().unwrap_or("0"), b.as_str().unwrap_or("0"), false) })
            }
            (Some((k @ ("SS" | "NS" | "BS"), a)), Some((k2, b))) if k == k2 => {
                let mut set = a.as_array().cloned().unwrap_or_default();
                for v in b.as_array().into_iter().flatten() {
                    if !set.contains(v) {
                        set.push(v.clone());
                    }
                }
                json!({ k: set })
            }
            _ => {
                return Err(DynamoError::validation(
                    "An operand in the update expression has an incorrect data type".to_owned(),
                ));
            }
        };
        put(&mut out, path, Some(added))?;
    }
    for (path, operand) in &update.delete {
        let value = operand_value(item, operand)?.unwrap_or(Value::Null);
        if let (Some((k, a)), Some((k2, b))) = (get(item, path).and_then(single), single(&value))
            && k == k2
        {
            let set: Vec<Value> = a
                .as_array()
                .into_iter()
                .flatten()
                .filter(|v| !b.as_array().is_some_and(|b| b.contains(v)))
                .cloned()
                .collect();
            put(&mut out, path, if set.is_empty() { None } else { Some(json!({ k: set })) })?;
        }
    }
    Ok(out)
}

/// Sets (or, with `None`, removes) the value at `path`.
fn put(item: &mut Item, path: &Path, value: Option<Value>) -> Result<(), DynamoError> {
    let Some(Step::Key(first)) = path.first() else { return Ok(()) };
    if path.len() == 1 {
        match value {
            Some(v) => item.insert(first.clone(), v),
            None => item.remove(first),
        };
        return Ok(());
    }
    let invalid = || {
        DynamoError::validation("The document path provided in the update expression is invalid for update".to_owned())
    };
    let mut at = item.get_mut(first).ok_or_else(invalid)?;
    for (i, step) in path[1..].iter().enumerate() {
        let last = i + 2 == path.len();
        let map = at.as_object_mut().ok_or_else(invalid)?;
        let (kind, inner) = map.iter_mut().next().ok_or_else(invalid)?;
        match (kind.as_str(), step) {
            ("M", Step::Key(k)) => {
                let m = inner.as_object_mut().ok_or_else(invalid)?;
                if last {
                    match value {
                        Some(v) => m.insert(k.clone(), v),
                        None => m.remove(k),
                    };
                    return Ok(());
                }
                at = m.get_mut(k).ok_or_else(invalid)?;
            }
            ("L", Step::Index(n)) => {
                let l = inner.as_array_mut().ok_or_else(invalid)?;
                if last {
                    match value {
                        Some(v) if *n < l.len() => l[*n] = v,
                        Some(v) => l.push(v),
                        None if *n < l.len() => {
                            l.remove(*n);
                        }
                        None => {}
                    }
                    return Ok(());
                }
                at = l.get_mut(*n).ok_or_else(invalid)?;
            }
            _ => return Err(invalid()),
        }
    }
    Ok(())
}

/// `item` cut to the attributes of `paths` (top-level attributes whole, a nested path's
/// attribute whole too: enough for what the project projects).
pub(crate) fn project(item: &Item, paths: &[Path]) -> Item {
    let mut out = BTreeMap::new();
    for path in paths {
        if let Some(Step::Key(first)) = path.first()
            && let Some(v) = item.get(first)
        {
            out.insert(first.clone(), v.clone());
        }
    }
    out
}
