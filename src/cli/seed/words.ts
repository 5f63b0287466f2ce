/**
 * Word lists the seeder draws from: names with a long tail (common first, rare last, so a
 * substring search finds many or few orders depending on the fragment), email domains with
 * a skew, and the parts of experience names, places, time zones and currencies.
 */

/** A comma-separated list kept as text so it stays compact (line breaks count as spaces). */
const list = (text: string): readonly string[] =>
  text
    .split(',')
    .map((item) => item.trim().replace(/\s+/g, ' '))
    .filter(Boolean);

export const FIRST_NAMES = list(`
  James, Mary, John, Patricia, Robert, Jennifer, Michael, Linda, William, Elizabeth,
  David, Barbara, Richard, Susan, Joseph, Jessica, Thomas, Sarah, Charles, Karen,
  Christopher, Nancy, Daniel, Lisa, Matthew, Betty, Anthony, Margaret, Mark, Sandra,
  Donald, Ashley, Steven, Kimberly, Paul, Emily, Andrew, Donna, Joshua, Michelle, Kenneth,
  Dorothy, Kevin, Carol, Brian, Amanda, George, Melissa, Edward, Deborah, Ronald,
  Stephanie, Timothy, Rebecca, Jason, Sharon, Jeffrey, Laura, Ryan, Cynthia, Jacob,
  Kathleen, Gary, Amy, Nicholas, Shirley, Eric, Angela, Jonathan, Helen, Stephen, Anna,
  Larry, Brenda, Justin, Pamela, Scott, Nicole, Brandon, Emma, Benjamin, Samantha, Samuel,
  Katherine, Gregory, Christine, Frank, Debra, Alexander, Rachel, Raymond, Catherine,
  Patrick, Carolyn, Jack, Janet, Dennis, Ruth, Jerry, Maria, Tyler, Heather, Aaron, Diane,
  Jose, Virginia, Adam, Julie, Henry, Joyce, Nathan, Victoria, Douglas, Olivia, Zachary,
  Kelly, Peter, Christina, Kyle, Lauren, Walter, Joan, Ethan, Evelyn, Jeremy, Judith,
  Harold, Megan, Keith, Cheryl, Christian, Andrea, Roger, Hannah, Noah, Martha, Gerald,
  Jacqueline, Carl, Frances, Terry, Gloria, Sean, Ann, Austin, Teresa, Arthur, Kathryn,
  Lawrence, Sara, Jesse, Janice, Hiroshi, Yuki, Lars, Ingrid, Mateo, Lucia, Pierre,
  Camille, Giulia, Marco, Sven, Astrid, Rahul, Priya, Wei, Mei, Omar, Fatima, Kofi, Amara
`);

export const LAST_NAMES = list(`
  Smith, Johnson, Williams, Brown, Jones, Garcia, Miller, Davis, Rodriguez, Martinez,
  Hernandez, Lopez, Gonzalez, Wilson, Anderson, Thomas, Taylor, Moore, Jackson, Martin,
  Lee, Perez, Thompson, White, Harris, Sanchez, Clark, Ramirez, Lewis, Robinson, Walker,
  Young, Allen, King, Wright, Scott, Torres, Nguyen, Hill, Flores, Green, Adams, Nelson,
  Baker, Hall, Rivera, Campbell, Mitchell, Carter, Roberts, Gomez, Phillips, Evans,
  Turner, Diaz, Parker, Cruz, Edwards, Collins, Reyes, Stewart, Morris, Morales, Murphy,
  Cook, Rogers, Gutierrez, Ortiz, Morgan, Cooper, Peterson, Bailey, Reed, Kelly, Howard,
  Ramos, Kim, Cox, Ward, Richardson, Watson, Brooks, Chavez, Wood, James, Bennett, Gray,
  Mendoza, Ruiz, Hughes, Price, Alvarez, Castillo, Sanders, Patel, Myers, Long, Ross,
  Foster, Jimenez, Powell, Jenkins, Perry, Russell, Sullivan, Bell, Coleman, Butler,
  Henderson, Barnes, Gonzales, Fisher, Vasquez, Simmons, Romero, Jordan, Patterson,
  Alexander, Hamilton, Graham, Reynolds, Griffin, Wallace, Moreno, West, Cole, Hayes,
  Bryant, Herrera, Gibson, Ellis, Tran, Medina, Aguilar, Stevens, Murray, Ford, Castro,
  Marshall, Owens, Harrison, Fernandez, McDonald, Woods, Washington, Kennedy, Wells,
  Vargas, Henry, Chen, Freeman, Webb, Tucker, Guzman, Burns, Crawford, Olson, Simpson,
  Porter, Hunter, Gordon, Mendez, Silva, Shaw, Snyder, Mason, Dixon, Munoz, Hunt, Hicks,
  Holmes, Palmer, Wagner, Black, Robertson, Boyd, Rose, Stone, Salazar, Fox, Warren,
  Mills, Meyer, Rice, Schmidt, Garza, Daniels, Ferguson, Nichols, Stephens, Soto, Weaver,
  Ryan, Gardner, Payne, Grant, Dunn, Kelley, Spencer, Hawkins, Tanaka, Yamamoto, Larsen,
  Johansson, Rossi, Bianchi, Dubois, Lefebvre, Mueller, Schneider, Kowalski, Novak,
  Okafor, Mensah, Sharma, Gupta, Wang, Zhang, Haddad, Khalil, Lindqvist, Van der Berg,
  O'Brien, MacLeod, Fitzgerald
`);

/** Email domains, most common first (picked with a skew, so gmail.com dominates). */
export const DOMAINS = list(`
  gmail.com, yahoo.com, hotmail.com, outlook.com, icloud.com, aol.com, gmx.de, web.de,
  orange.fr, libero.it, mail.ru, qq.com, protonmail.com, btinternet.com, comcast.net,
  verizon.net, shaw.ca, bigpond.com, xtra.co.nz, example.org, acme-travel.com, globex.com,
  initech.com, umbrella.co.uk
`);

export const ADJECTIVES = list(`
  Sunset, Sunrise, Morning, Evening, Private, Guided, Family, Classic, Wild, Hidden,
  Coastal, Historic, Secret, Scenic, Ultimate, Small-Group, Premium, Half-Day, Full-Day,
  Moonlight, Island, Mountain, Desert, Rainforest, Urban, Vintage, Gourmet, Eco,
  Adventure, Luxury, Budget, Sailing, Tropical, Alpine, Glacier, Canyon, River, Lake,
  Volcano, Harbour
`);

export const ACTIVITIES = list(`
  Kayak Tour, Snorkel Trip, Food Walk, Wine Tasting, Bike Ride, Hike, Boat Cruise, Surf
  Lesson, Cooking Class, Photo Safari, Zipline, Horseback Ride, Dive, Paddleboard Session,
  Helicopter Flight, Whale Watching, Jeep Safari, Rafting, Canyoning, Climbing Day, Ghost
  Tour, Pub Crawl, Street Art Walk, Market Tour, Segway Tour, Fishing Charter, Sailing
  Trip, Yoga Retreat, Balloon Ride, Cave Exploration, Dolphin Swim, Museum Tour, Tuk-Tuk
  Tour, Brewery Visit, Chocolate Workshop, Pottery Class, Sunset Cruise, Night Walk,
  Island Hopping, Glacier Walk, Dog Sledding, Snowshoe Trek, Ski Lesson, ATV Ride, Gondola
  Ride, Temple Visit, Tea Ceremony, Salsa Class, Flamenco Show, Tango Lesson, Canoe Trip,
  Birdwatching, Stargazing, Lava Walk, Jet Ski, Parasailing, Skydive, Bungee Jump, Farm
  Visit, Olive Oil Tasting
`);

export const PLACES = list(`
  Lisbon, Porto, Madrid, Seville, Barcelona, Valencia, Paris, Nice, Lyon, Rome, Florence,
  Venice, Naples, Athens, Santorini, Crete, Dubrovnik, Split, Prague, Vienna, Budapest,
  Berlin, Munich, Amsterdam, Copenhagen, Stockholm, Oslo, Reykjavik, Dublin, Edinburgh,
  London, Bath, New York, Boston, Miami, Chicago, Denver, Seattle, San Diego, Honolulu,
  Maui, Vancouver, Banff, Quebec, Cancun, Tulum, Oaxaca, Lima, Cusco, Santiago, Buenos
  Aires, Rio, Cape Town, Marrakech, Cairo, Zanzibar, Nairobi, Dubai, Istanbul, Bangkok,
  Chiang Mai, Phuket, Bali, Hanoi, Hoi An, Kyoto, Tokyo, Osaka, Seoul, Sydney, Cairns,
  Melbourne, Queenstown, Auckland, Fiji, Tahiti, Goa, Jaipur, Kathmandu, Colombo
`);

export const TIMEZONES = list(`
  UTC, Europe/Lisbon, Europe/Madrid, Europe/Paris, Europe/Rome, Europe/Athens,
  America/New_York, America/Chicago, America/Denver, America/Los_Angeles,
  Pacific/Honolulu, America/Mexico_City, America/Lima, Africa/Cairo, Asia/Dubai,
  Asia/Bangkok, Asia/Tokyo, Australia/Sydney, Pacific/Auckland
`);

export const CURRENCIES = list(`
  USD, EUR, GBP, AUD, CAD, NZD, JPY, CHF, MXN, THB
`);
